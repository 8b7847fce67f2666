import { ApolloServerErrorCode } from '@apollo/server/errors';
import {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  getArgumentValues,
  getNamedType,
  getNullableType,
  GraphQLCompositeType,
  GraphQLSchema,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';
import type { ComplexityEstimator } from 'graphql-query-complexity';

import type { BlogModuleOptions } from '../blog-options.interface';
import { refusal } from '../common/errors';
import { fragmentsOf } from '../common/selection';

/**
 * The field extension of an expensive field: one whose work grows with the data, whatever its
 * page size (a search ranks its matches, a count or a filter by tags reads every post it may
 * keep). Set it with `@Extensions(expensive(...))` beside the field. Such a field is priced by
 * the work it can do, in the operation's cost, and an operation runs at most
 * `maxExpensiveFields` of them (see `OperationRules`).
 */
export const EXPENSIVE_FIELD = 'expensive';

/** How many expensive fields one operation may run when the module's options do not say. */
export const DEFAULT_MAX_EXPENSIVE_FIELDS = 3;

/**
 * What a statement that may read the posts of a whole tag, or every published post, costs beyond
 * its page: as much as a search ranks by default (`searchRankWindow`).
 */
export const POSTS_SCAN_WORK = 1_000;

/**
 * What a page of one tag's posts costs beyond its page: its newest posts are found among the
 * tag's published posts (about 1 ms for a tag of 50,000 posts, a tenth of a search).
 */
export const TAG_POSTS_WORK = 100;

/** One use of a field in an operation: its arguments, and the field whose object holds it. */
export interface FieldUse {
  args: Record<string, unknown>;
  /** The field whose object holds this one (`Type.field`), its arguments; null at the root. */
  parent: { coordinate: string; args: Record<string, unknown> } | null;
}

/** The value of the {@link EXPENSIVE_FIELD} extension. */
export interface ExpensiveField {
  /**
   * What one run of this use may cost, in rows read, whatever its page size; it is added to the
   * field's cost (and so multiplied by the page sizes above it). Null when this use is cheap: a
   * count that is kept rather than counted, say.
   */
  work(use: FieldUse, options: BlogModuleOptions): number | null;
}

/** The extensions that mark a field expensive, for `@Extensions(...)`. */
export function expensive(work: ExpensiveField['work']): Record<string, unknown> {
  const mark: ExpensiveField = { work };
  return { [EXPENSIVE_FIELD]: mark };
}

/** The expensive fields of an operation. */
export interface ExpensiveUses {
  /**
   * How many run: one per response path (an alias is a path of its own; the same path reached
   * through several fragments runs once). `@skip` and `@include` are not weighed.
   */
  count: number;
  /** The work charged to each field node of the document (see {@link expensiveUsesOf}). */
  work: Map<FieldNode, number>;
}

/** Where a field is visited: its object's type, the field that selected it, its response path. */
interface Place {
  type: GraphQLCompositeType;
  parent: FieldUse['parent'];
  /** The node of the field that selected this one. */
  parentNode: FieldNode | null;
  /** Whether that field is a page of one object (a connection) rather than a list. */
  parentIsConnection: boolean;
  path: string;
}

/**
 * The expensive fields that `operation` runs with `variables` (coerced), fragments expanded, for
 * {@link expensiveFieldsEstimator} and {@link refuseManyExpensiveFields}. Throws past `maxNodes`
 * fields visited, as the cost estimate does: a fragment bomb is refused, not walked.
 *
 * A field's work is charged to its own node, so that the cost multiplies it by the page sizes
 * above it; but a field of a connection (an object that takes a page size, such as
 * `PostConnection.totalCount`) runs once per connection, whereas the cost multiplies the
 * connection's whole selection by its page size: its work is charged to the connection's node.
 * A node of a fragment used in several places is charged the most of its uses.
 */
export function expensiveUsesOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  options: BlogModuleOptions,
  maxNodes: number,
): ExpensiveUses {
  const fragments = fragmentsOf(document);
  const paths = new Set<string>();
  /** By the node charged, the most work of each field node charged to it. */
  const charged = new Map<FieldNode, Map<FieldNode, number>>();
  let visited = 0;

  const visit = (selectionSet: SelectionSetNode, place: Place): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (++visited > maxNodes) {
          throw new Error(`the operation selects more than ${maxNodes} fields`);
        }
        visitField(selection, place);
      } else {
        const fragment: FragmentDefinitionNode | undefined =
          selection.kind === Kind.FRAGMENT_SPREAD ? fragments[selection.name.value] : undefined;
        const inner = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragment;
        if (!inner) continue;
        const condition = inner.typeCondition && schema.getType(inner.typeCondition.name.value);
        visit(inner.selectionSet, {
          ...place,
          type: condition && isCompositeType(condition) ? condition : place.type,
        });
      }
    }
  };

  const visitField = (node: FieldNode, place: Place): void => {
    const { type, parent, parentNode, parentIsConnection, path } = place;
    if (!isObjectType(type) && !isInterfaceType(type)) return;
    const field = type.getFields()[node.name.value];
    if (!field) return;
    const args = getArgumentValues(field, node, variables);
    const responsePath = `${path}.${node.alias?.value ?? node.name.value}`;
    const mark = field.extensions[EXPENSIVE_FIELD] as ExpensiveField | undefined;
    const work = mark?.work({ args, parent }, options) ?? null;
    if (work !== null) {
      paths.add(responsePath);
      const at = parentIsConnection && parentNode ? parentNode : node;
      const works = charged.get(at) ?? new Map<FieldNode, number>();
      works.set(node, Math.max(work, works.get(node) ?? 0));
      charged.set(at, works);
    }
    const fieldType = getNamedType(field.type);
    if (!node.selectionSet || !isCompositeType(fieldType)) return;
    visit(node.selectionSet, {
      type: fieldType,
      parent: { coordinate: `${type.name}.${field.name}`, args },
      parentNode: node,
      parentIsConnection: 'first' in args && !isListType(getNullableType(field.type)),
      path: responsePath,
    });
  };

  const root = schema.getRootType(operation.operation);
  if (root) {
    visit(operation.selectionSet, {
      type: root,
      parent: null,
      parentNode: null,
      parentIsConnection: false,
      path: '',
    });
  }
  const work = new Map<FieldNode, number>();
  for (const [node, works] of charged) {
    work.set(
      node,
      [...works.values()].reduce((sum, each) => sum + each, 0),
    );
  }
  return { count: paths.size, work };
}

/**
 * Prices each expensive field by its work: the work found by {@link expensiveUsesOf}, plus what
 * the first of `estimators` that answers makes of the field (its page, its selection).
 */
export function expensiveFieldsEstimator(
  work: ReadonlyMap<FieldNode, number>,
  estimators: readonly ComplexityEstimator[],
): ComplexityEstimator {
  return (args) => {
    const extra = work.get(args.node);
    if (extra === undefined) return undefined;
    for (const estimator of estimators) {
      const base = estimator(args);
      if (typeof base === 'number' && !Number.isNaN(base)) return extra + base;
    }
    return undefined;
  };
}

/** Throws GRAPHQL_VALIDATION_FAILED when an operation runs more than `max` expensive fields. */
export function refuseManyExpensiveFields(count: number, max: number): void {
  if (count <= max) return;
  throw refusal(
    ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
    `The query runs ${count} expensive fields (searches, counts and filters by tags, whose work grows with the posts whatever their page size); at most ${max} may run in one operation. Send them in separate requests.`,
    { limit: 'expensiveFields', expensiveFields: count, maxExpensiveFields: max },
  );
}
