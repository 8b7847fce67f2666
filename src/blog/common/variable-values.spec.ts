import {
  buildSchema,
  getOperationAST,
  getVariableValues,
  OperationDefinitionNode,
  parse,
} from 'graphql';

import { coerceVariableValues } from './variable-values';

const schema = buildSchema(`
  type Query { post(id: ID!): Boolean, posts(first: Int): Boolean }
`);

const operationOf = (text: string): OperationDefinitionNode => getOperationAST(parse(text))!;

const byId = operationOf('query ($id: ID!) { post(id: $id) }');
const paged = operationOf('query ($first: Int = 3) { posts(first: $first) }');

describe('coerceVariableValues', () => {
  it('gives what graphql-js gives: the coerced values, with the defaults', () => {
    expect(coerceVariableValues(schema, byId, { id: 7, extra: 1 })).toEqual({
      coerced: { id: '7' },
    });
    expect(coerceVariableValues(schema, paged, {})).toEqual(
      getVariableValues(schema, paged.variableDefinitions!, {}),
    );
    expect(coerceVariableValues(schema, paged, {})).toEqual({ coerced: { first: 3 } });
  });

  it("gives graphql-js's first error for values that do not fit", () => {
    const result = coerceVariableValues(schema, byId, { id: { nested: true } });
    expect(result.coerced).toBeUndefined();
    expect(result.errors?.map((error) => error.message)).toEqual(
      getVariableValues(
        schema,
        byId.variableDefinitions!,
        { id: { nested: true } },
        {
          maxErrors: 1,
        },
      ).errors?.map((error) => error.message),
    );
    expect(result.errors).toHaveLength(1);
  });

  it('coerces the variables of a request once for the same schema and operation', () => {
    const variables = { id: 'p1' };
    const request = { variables };
    const first = coerceVariableValues(schema, byId, variables, request);
    expect(first).toEqual({ coerced: { id: 'p1' } });
    expect(coerceVariableValues(schema, byId, variables, request)).toBe(first);
    expect(coerceVariableValues(schema, byId, { id: 'p1' }, request)).not.toBe(first);
  });

  it('coerces afresh without a request, and for another request with the same object', () => {
    const variables: Record<string, unknown> = { id: 'p1' };
    const first = coerceVariableValues(schema, byId, variables);
    expect(coerceVariableValues(schema, byId, variables)).not.toBe(first);

    const earlier = coerceVariableValues(schema, byId, variables, { variables });
    // A caller that sends the same object again, changed: the next request sees the change.
    variables.id = { nested: true };
    expect(coerceVariableValues(schema, byId, variables, { variables }).errors).toHaveLength(1);
    expect(earlier).toEqual({ coerced: { id: 'p1' } });
  });

  it('coerces the same request again for another operation, schema or variables object', () => {
    const variables = { id: 'p1', first: 5 };
    const request = { variables };
    expect(coerceVariableValues(schema, byId, variables, request)).toEqual({
      coerced: { id: 'p1' },
    });
    expect(coerceVariableValues(schema, paged, variables, request)).toEqual({
      coerced: { first: 5 },
    });

    const strict = buildSchema('type Query { post(id: Int!): Boolean }');
    const strictById = operationOf('query ($id: Int!) { post(id: $id) }');
    expect(coerceVariableValues(schema, byId, variables, request).errors).toBeUndefined();
    expect(coerceVariableValues(strict, byId, variables, request).errors).toHaveLength(1);
    expect(coerceVariableValues(strict, strictById, variables, request).errors).toHaveLength(1);

    expect(coerceVariableValues(schema, byId, { id: 'p2' }, request)).toEqual({
      coerced: { id: 'p2' },
    });
  });

  it('takes missing variables as none, each time afresh', () => {
    expect(coerceVariableValues(schema, paged, undefined)).toEqual({ coerced: { first: 3 } });
    expect(coerceVariableValues(schema, paged, null)).toEqual({ coerced: { first: 3 } });
    expect(coerceVariableValues(schema, byId, undefined).errors).toHaveLength(1);
  });
});
