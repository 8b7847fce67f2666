import { getVariableValues, GraphQLSchema, OperationDefinitionNode } from 'graphql';

/** graphql-js's coercion of an operation's variables: the values, or the errors. */
export type CoercedVariables = ReturnType<typeof getVariableValues>;

interface Coercion {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown> | null | undefined;
  result: CoercedVariables;
}

/** The last coercion made for each request, for as long as the request lives. */
const coercions = new WeakMap<object, Coercion>();

/**
 * The variables that execution will see: graphql-js's `getVariableValues` for the operation's
 * declarations, stopping at the first error. A request's variables are checked by the operation
 * limits, counted by the write limit and checked again by compiled execution, each before
 * execution; given the `request` they came with (Apollo's `GraphQLRequest`), the answer for the
 * same schema, operation and variables object is computed once per request. Another request is
 * coerced afresh, even with the same variables object, which its sender may have changed since.
 * The caller must not change the values it gets.
 */
export function coerceVariableValues(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | null | undefined,
  request?: object,
): CoercedVariables {
  const known = request ? coercions.get(request) : undefined;
  if (
    known &&
    known.schema === schema &&
    known.operation === operation &&
    known.variables === variables
  ) {
    return known.result;
  }
  const result = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, {
    maxErrors: 1,
  });
  if (request) coercions.set(request, { schema, operation, variables, result });
  return result;
}
