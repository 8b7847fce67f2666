import { buildSchema, getOperationAST, parse } from 'graphql';

import { CompiledExecution } from './compiled-execution';

jest.mock('graphql-jit', () => ({
  ...jest.requireActual('graphql-jit'),
  compileQuery: jest.fn(() => {
    throw new Error('cannot compile');
  }),
}));

describe('CompiledExecution when graphql-jit throws', () => {
  it('should run the document on graphql-js, and not try to compile it again', async () => {
    const schema = buildSchema('type Query { hello: String }');
    schema.getQueryType()!.getFields().hello.resolve = () => 'world';
    const source = '{ hello }';
    const document = parse(source);
    const operation = {
      schema,
      document,
      operation: getOperationAST(document) ?? undefined,
      contextValue: {},
      source,
      documentKey: source,
    };
    const execution = new CompiledExecution({ compileAfter: 0 });

    for (let i = 0; i < 3; i++) {
      expect(await execution.run(operation)).toEqual({ data: { hello: 'world' } });
      await execution.idle();
    }
    expect(execution.stats).toMatchObject({ compiled: 0, interpreted: 3, refused: 1 });
    const { compileQuery } = jest.requireMock<typeof import('graphql-jit')>('graphql-jit');
    expect(compileQuery).toHaveBeenCalledTimes(1);
  });
});
