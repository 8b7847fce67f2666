import { createHash } from 'node:crypto';

import { ApolloServerErrorCode } from '@apollo/server/errors';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { Inject, Injectable } from '@nestjs/common';
import {
  DocumentNode,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  GraphQLSchema,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
  validate,
  ValidationContext,
  ValidationRule,
  visit,
} from 'graphql';
import {
  ComplexityEstimatorArgs,
  fieldExtensionsEstimator,
  getComplexity,
  simpleEstimator,
} from 'graphql-query-complexity';
import { LRUCache } from 'lru-cache';

import { BlogModuleOptions, DocumentLimits } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { ErrorCode, refusal } from '../common/errors';
import { DEFAULT_PAGE_SIZE } from '../common/pagination';
import { fragmentsOf } from '../common/selection';

/** The default ceiling: the batching test's widest query costs about 9,000. */
export const DEFAULT_MAX_QUERY_COMPLEXITY = 20_000;

/** What a field that runs a COUNT of its own (not batched per parent) costs. */
export const COUNT_COMPLEXITY = 100;

/** The shape limits of a document, checked before its cost. */
export const DEFAULT_DOCUMENT_LIMITS: Required<DocumentLimits> = {
  maxDepth: 12,
  maxAliases: 30,
  maxDirectives: 50,
  maxTokens: 15_000,
};

/** Costs remembered across documents and variable sets; the oldest go first. */
const MAX_CACHED_COSTS = 1_000;

/**
 * A paged field (a list, or a connection) costs 1, plus its page size times what each item
 * selects, and charges its selection at least once even at `first: 0`: an empty page still
 * costs its selection to plan and, on a connection, its `totalCount` runs whatever the page
 * size. Without that floor, aliases of `posts(first: 0) { ...BigFragment }` cost 1 each, and a
 * large document passed the limit for nothing.
 */
export function pagedEstimator({ args, childComplexity }: ComplexityEstimatorArgs): number | void {
  if (!('first' in args)) return undefined;
  const first = typeof args.first === 'number' && args.first >= 0 ? args.first : DEFAULT_PAGE_SIZE;
  return 1 + Math.max(first, 1) * Math.max(childComplexity, 1);
}

/**
 * The field extension of a root field that must be its operation's only field: the mutations
 * that sign the viewer out everywhere or delete the account (`@Extensions({ [SOLE_ROOT_FIELD]:
 * true })`). A field after them would run as a user who is signed out or gone, and a failing
 * field after `deleteAccount` could hide the deletion behind `data: null`, so such an operation
 * is refused whole, before anything runs.
 */
export const SOLE_ROOT_FIELD = 'soleRootField';

/** True when `value` holds a string with a NUL character, at any depth. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsNul);
  return false;
}

/**
 * graphql-armor's depth, alias (`__typename` included) and directive rules, reporting a
 * GRAPHQL_VALIDATION_FAILED error that names the limit instead of throwing.
 */
function documentLimitRules(limits: Required<DocumentLimits>): ValidationRule[] {
  const report =
    (limit: string, maximum: number) => (context: ValidationContext | null, error: GraphQLError) =>
      context?.reportError(
        refusal(
          ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
          `${error.message.replace(/^Syntax Error: /, '')} (${limit}; the maximum is ${maximum})`,
          { limit, maximum },
        ),
      );
  const common = { exposeLimits: true, propagateOnRejection: false };
  return [
    maxDepthRule({ ...common, n: limits.maxDepth, onReject: [report('depth', limits.maxDepth)] }),
    maxAliasesRule({
      ...common,
      n: limits.maxAliases,
      allowList: [],
      onReject: [report('aliases', limits.maxAliases)],
    }),
    maxDirectivesRule({
      ...common,
      n: limits.maxDirectives,
      onReject: [report('directives', limits.maxDirectives)],
    }),
  ];
}

function documentHoldsNul(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    StringValue(node) {
      if (node.value.includes('\u0000')) found = true;
    },
  });
  return found;
}

/**
 * The fields an operation selects at its root, fragments and inline fragments expanded, as
 * response name and field name. `@skip` and `@include` are not read: a field that may run counts.
 */
function rootFieldsOf(
  document: DocumentNode,
  operation: OperationDefinitionNode,
): { responseName: string; fieldName: string }[] {
  const fragments = fragmentsOf(document);
  const fields: { responseName: string; fieldName: string }[] = [];
  const expanded = new Set<string>();
  const collect = (selectionSet: SelectionSetNode): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const fieldName = selection.name.value;
        fields.push({ responseName: selection.alias?.value ?? fieldName, fieldName });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else if (!expanded.has(selection.name.value)) {
        expanded.add(selection.name.value);
        const fragment = fragments[selection.name.value];
        if (fragment) collect(fragment.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);
  return fields;
}

/** The refusal of an operation that selects a {@link SOLE_ROOT_FIELD} field and anything else. */
function companyError(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): GraphQLError | null {
  const rootFields = schema.getRootType(operation.operation)?.getFields();
  if (!rootFields) return null;
  const fields = rootFieldsOf(document, operation);
  const sole = fields.find(({ fieldName }) => rootFields[fieldName]?.extensions[SOLE_ROOT_FIELD]);
  if (!sole) return null;
  const alone = fields.every(
    ({ responseName, fieldName }) =>
      responseName === sole.responseName && fieldName === sole.fieldName,
  );
  if (alone) return null;
  return refusal(
    ErrorCode.BadRequest,
    `${sole.fieldName} must be the only field of its operation: fields after it would run as a user who is signed out or deleted. Send it in an operation of its own.`,
  );
}

/**
 * The checks every operation passes before it runs, on HTTP and on the WebSocket alike: a field
 * marked {@link SOLE_ROOT_FIELD} must be its operation's only root field (`BAD_REQUEST`), its
 * variables must fit their declarations, no text may hold a NUL character (SQLite would store
 * it, PostgreSQL refuses it), and its estimated cost (fields times page sizes, fragments
 * expanded) must stay under `maxQueryComplexity`. A cost that cannot be computed is refused.
 * Each refusal is a GraphQLError with a code and HTTP status 400.
 */
@Injectable()
export class OperationRules {
  readonly maxComplexity: number;
  /** The document limits in force; `maxTokens` is for the parser (see {@link parseOptions}). */
  readonly documentLimits: Required<DocumentLimits>;
  private readonly limitRules: ValidationRule[];
  private readonly costs = new LRUCache<string, number>({ max: MAX_CACHED_COSTS });
  private readonly literalNul = new WeakMap<DocumentNode, boolean>();
  private readonly shapeErrors = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  private readonly companyErrors = new WeakMap<OperationDefinitionNode, GraphQLError | null>();

  constructor(@Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions) {
    this.maxComplexity = options.maxQueryComplexity ?? DEFAULT_MAX_QUERY_COMPLEXITY;
    this.documentLimits = { ...DEFAULT_DOCUMENT_LIMITS, ...options.documentLimits };
    this.limitRules = documentLimitRules(this.documentLimits);
  }

  /** Options for graphql-js `parse` (and Apollo's `parseOptions`): the token limit. */
  get parseOptions(): { maxTokens: number } {
    return { maxTokens: this.documentLimits.maxTokens };
  }

  /**
   * Checks a parsed and validated operation. `documentKey` identifies the document text (a
   * hash of it); the cost is remembered per document, operation and declared variable values.
   */
  check(
    schema: GraphQLSchema,
    document: DocumentNode,
    documentKey: string,
    operationName: string | null | undefined,
    variables: Record<string, unknown> | null | undefined,
  ): void {
    const operation = getOperationAST(document, operationName);
    if (!operation) return;
    this.refuseShape(schema, document);
    this.refuseCompany(schema, document, operation);
    const coerced = this.coerceVariables(schema, operation, variables);
    this.refuseNul(document, coerced);
    const cost = this.cost(schema, document, documentKey, operation, coerced);
    if (cost > this.maxComplexity) {
      throw refusal(
        ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
        `The query is too complex: ${cost} exceeds the maximum of ${this.maxComplexity}. Ask for smaller pages or fewer nested lists.`,
        { limit: 'complexity', complexity: cost, maxComplexity: this.maxComplexity },
      );
    }
  }

  /** Depth, aliases and directives, checked once per parsed document. */
  private refuseShape(schema: GraphQLSchema, document: DocumentNode): void {
    let errors = this.shapeErrors.get(document);
    if (!errors)
      this.shapeErrors.set(document, (errors = validate(schema, document, this.limitRules)));
    if (errors.length > 0) throw errors[0];
  }

  /** A {@link SOLE_ROOT_FIELD} field with other root fields; checked once per parsed operation. */
  private refuseCompany(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
  ): void {
    let error = this.companyErrors.get(operation);
    if (error === undefined) {
      this.companyErrors.set(operation, (error = companyError(schema, document, operation)));
    }
    if (error) throw error;
  }

  /** Only the declared variables, coerced: what execution will see. */
  private coerceVariables(
    schema: GraphQLSchema,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown> | null | undefined,
  ): Record<string, unknown> {
    const result = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, {
      maxErrors: 1,
    });
    if (result.errors) {
      throw new GraphQLError(result.errors[0].message, {
        extensions: { code: ErrorCode.BadUserInput, http: { status: 400 } },
      });
    }
    return result.coerced;
  }

  private refuseNul(document: DocumentNode, variables: Record<string, unknown>): void {
    let literal = this.literalNul.get(document);
    if (literal === undefined)
      this.literalNul.set(document, (literal = documentHoldsNul(document)));
    const variable = Object.keys(variables).find((name) => holdsNul(variables[name]));
    if (!literal && variable === undefined) return;
    throw new GraphQLError('Text may not contain the NUL character (U+0000).', {
      extensions: {
        code: ErrorCode.BadUserInput,
        ...(variable !== undefined ? { field: variable } : {}),
        http: { status: 400 },
      },
    });
  }

  private cost(
    schema: GraphQLSchema,
    document: DocumentNode,
    documentKey: string,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown>,
  ): number {
    const key = createHash('sha256')
      .update(documentKey)
      .update('\0')
      .update(operation.name?.value ?? '')
      .update('\0')
      .update(JSON.stringify(variables))
      .digest('base64');
    const known = this.costs.get(key);
    if (known !== undefined) return known;
    const cost = this.estimate(schema, document, operation, variables);
    this.costs.set(key, cost);
    return cost;
  }

  private estimate(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown>,
  ): number {
    try {
      // Only the operation that runs, with the fragments it uses.
      const single: DocumentNode = {
        kind: Kind.DOCUMENT,
        definitions: document.definitions.filter(
          (definition) => definition === operation || definition.kind !== Kind.OPERATION_DEFINITION,
        ),
      };
      return getComplexity({
        schema,
        query: single,
        variables,
        estimators: [
          fieldExtensionsEstimator(),
          pagedEstimator,
          simpleEstimator({ defaultComplexity: 1 }),
        ],
      });
    } catch (error) {
      throw refusal(
        ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
        `The query's cost could not be computed (${error instanceof Error ? error.message : 'unknown reason'}); it is refused. Send a smaller document.`,
        { limit: 'complexity', maxComplexity: this.maxComplexity },
      );
    }
  }
}

/** A stable key for a document's text. */
export function documentKeyOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
