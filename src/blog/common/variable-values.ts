import { getVariableValues, GraphQLSchema, OperationDefinitionNode } from 'graphql';

/** graphql-js's coercion of an operation's variables: the values, or the errors. */
export type CoercedVariables = ReturnType<typeof getVariableValues>;

interface Coercion {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  result: CoercedVariables;
}

/** The last coercion of each variables object that a client sent, for as long as it lives. */
const coercions = new WeakMap<object, Coercion>();

/**
 * The variables that execution will see: graphql-js's `getVariableValues` for the operation's
 * declarations, stopping at the first error. A request's variables are checked by the operation
 * limits, counted by the write limit and checked again by compiled execution, each before
 * execution; the answer for the same schema, operation and variables object is computed once.
 * The caller must not change the values it gets.
 */
export function coerceVariableValues(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | null | undefined,
): CoercedVariables {
  const known = variables ? coercions.get(variables) : undefined;
  if (known && known.schema === schema && known.operation === operation) return known.result;
  const result = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, {
    maxErrors: 1,
  });
  if (variables) coercions.set(variables, { schema, operation, result });
  return result;
}
