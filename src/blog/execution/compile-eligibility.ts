import {
  ASTNode,
  BREAK,
  DocumentNode,
  FragmentDefinitionNode,
  Kind,
  OperationDefinitionNode,
  OperationTypeNode,
  SelectionSetNode,
  visit,
} from 'graphql';

import { fragmentsOf } from '../common/selection';

/** Why a document runs on graphql-js only, or null when graphql-jit may compile it. */
export type Ineligibility =
  | 'not a query'
  | 'directives'
  | 'variable inside a literal'
  | 'non-null variable with a default'
  | 'introspection'
  | 'selection too large';

/**
 * Whether graphql-jit may compile an operation, read from the document alone.
 *
 * Only queries qualify: a mutation must run its root fields serially and stop at the first that
 * fails, and graphql-jit 0.8 runs on after a failing one, writing what graphql-js never writes.
 * Within queries, the features where graphql-jit's answers differ from graphql-js's stay on
 * graphql-js: `@skip`/`@include` (and any other directive), variables inside object or list
 * literals (graphql-jit makes a left-out variable an explicit null), non-null variables with
 * defaults (graphql-jit answers a 400 "Internal server error") and introspection. A selection that
 * expands, through its fragments, to more than `maxSelections` fields is never compiled either:
 * graphql-jit's compile time and generated code grow with it.
 */
export function compileIneligibility(
  document: DocumentNode,
  operation: OperationDefinitionNode | undefined,
  maxSelections: number,
): Ineligibility | null {
  if (!operation || operation.operation !== OperationTypeNode.QUERY) return 'not a query';
  const nonNullDefault = operation.variableDefinitions?.some(
    (definition) => definition.type.kind === Kind.NON_NULL_TYPE && definition.defaultValue,
  );
  if (nonNullDefault) return 'non-null variable with a default';
  let reason: Ineligibility | null = null;
  const refuse = (why: Ineligibility) => {
    reason = why;
    return BREAK;
  };
  visit(document, {
    Directive: () => refuse('directives'),
    Field: (node) =>
      node.name.value === '__schema' || node.name.value === '__type'
        ? refuse('introspection')
        : undefined,
    Variable: (_node, _key, _parent, _path, ancestors) =>
      ancestors.some((ancestor) => isLiteral(ancestor))
        ? refuse('variable inside a literal')
        : undefined,
  });
  if (reason) return reason;
  return expandedSelectionSize(document, operation, maxSelections) > maxSelections
    ? 'selection too large'
    : null;
}

/**
 * The fields of an operation's selection once its fragments are expanded, counted up to one
 * past `limit` (so that a fragment bomb costs no more than `limit` steps).
 */
export function expandedSelectionSize(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  limit: number,
): number {
  const fragments = fragmentsOf(document);
  const budget = { left: limit };
  return countFields(operation.selectionSet, fragments, budget) ? limit - budget.left : limit + 1;
}

function isLiteral(node: ASTNode | readonly ASTNode[]): boolean {
  return !Array.isArray(node) && (node as ASTNode).kind in LITERALS;
}

const LITERALS = { [Kind.OBJECT]: true, [Kind.LIST]: true };

/** Spends one unit of `budget` per field of the expanded selection; false once it runs out. */
function countFields(
  selectionSet: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  budget: { left: number },
): boolean {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (--budget.left < 0) return false;
      if (selection.selectionSet && !countFields(selection.selectionSet, fragments, budget)) {
        return false;
      }
      continue;
    }
    const set =
      selection.kind === Kind.INLINE_FRAGMENT
        ? selection.selectionSet
        : fragments[selection.name.value]?.selectionSet;
    if (set && !countFields(set, fragments, budget)) return false;
  }
  return true;
}
