import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';

/** One operation to run: what Apollo hands a gateway's executor. */
export interface OperationToRun {
  schema: GraphQLSchema;
  document: DocumentNode;
  /** The operation that `operationName` resolved to; undefined when it names none. */
  operation?: OperationDefinitionNode;
  operationName?: string | null;
  variables?: Record<string, unknown>;
  contextValue: unknown;
  /** The document's text, which a compile parses afresh; without it nothing is compiled. */
  source?: string;
  /** A key of the document's text, such as Apollo's queryHash; without one, nothing is cached. */
  documentKey?: string;
  /**
   * The request the variables came with (Apollo's `GraphQLRequest`): where the operation limits
   * have coerced them for it already, their answer is reused (see `coerceVariableValues`).
   */
  request?: object;
}

/** What a compile needs of an operation: never its request's context or variables. */
export type DocumentToCompile = Pick<
  OperationToRun,
  'schema' | 'document' | 'operation' | 'operationName' | 'source'
>;

/** The cache key of an operation that may be compiled, or null for one that never is. */
export function compileKeyOf(operation: OperationToRun): string | null {
  if (operation.documentKey === undefined || operation.operation?.operation !== 'query') {
    return null;
  }
  return `${operation.operationName ?? ''}\n${operation.documentKey}`;
}

export function documentToCompile(operation: OperationToRun): DocumentToCompile {
  const { schema, document, operation: definition, operationName, source } = operation;
  return { schema, document, operation: definition, operationName, source };
}
