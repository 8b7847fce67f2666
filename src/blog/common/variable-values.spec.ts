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

  it('coerces a variables object once for the same schema and operation', () => {
    const variables = { id: 'p1' };
    const first = coerceVariableValues(schema, byId, variables);
    expect(coerceVariableValues(schema, byId, variables)).toBe(first);
    expect(coerceVariableValues(schema, byId, { id: 'p1' })).not.toBe(first);
  });

  it('coerces the same variables object again for another operation or schema', () => {
    const variables = { id: 'p1', first: 5 };
    expect(coerceVariableValues(schema, byId, variables)).toEqual({ coerced: { id: 'p1' } });
    expect(coerceVariableValues(schema, paged, variables)).toEqual({ coerced: { first: 5 } });

    const strict = buildSchema('type Query { post(id: Int!): Boolean }');
    const strictById = operationOf('query ($id: Int!) { post(id: $id) }');
    expect(coerceVariableValues(schema, byId, variables).errors).toBeUndefined();
    expect(coerceVariableValues(strict, byId, variables).errors).toHaveLength(1);
    expect(coerceVariableValues(strict, strictById, variables).errors).toHaveLength(1);
  });

  it('takes missing variables as none, each time afresh', () => {
    expect(coerceVariableValues(schema, paged, undefined)).toEqual({ coerced: { first: 3 } });
    expect(coerceVariableValues(schema, paged, null)).toEqual({ coerced: { first: 3 } });
    expect(coerceVariableValues(schema, byId, undefined).errors).toHaveLength(1);
  });
});
