import {
  buildSchema,
  execute,
  GraphQLError,
  OperationTypeNode,
  parse,
  GraphQLSchema,
  GraphQLObjectType,
} from 'graphql';
import { CompiledExecution, compiledExecutionGateway } from './compiled-execution';

const schema = buildSchema(`
  type Query { post(id: ID!): Post, posts: [Post!]! }
  type Post { id: ID!, title: String!, secret: String }
  type Mutation { touch: Int! }
  type Subscription { ticks: Int! }
`);
const fields = (schema.getType('Post') as GraphQLObjectType).getFields();
fields.secret.resolve = () => {
  throw new Error('no such table: secrets');
};
const query = schema.getQueryType()!.getFields();
query.post.resolve = (_, { id }) => ({ id, title: `Post ${id}` });
query.posts.resolve = () => [
  { id: '1', title: 'one' },
  { id: '2', title: 'two' },
];

function operation(source: string, extra: Partial<Parameters<CompiledExecution['run']>[0]> = {}) {
  return {
    schema,
    document: parse(source),
    operationType: OperationTypeNode.QUERY,
    contextValue: {},
    documentKey: source,
    ...extra,
  };
}

describe('CompiledExecution', () => {
  it('should compile a document on its second use by default, and answer as graphql-js does', async () => {
    const execution = new CompiledExecution();
    const op = operation('query P($id: ID!) { post(id: $id) { id title } posts { title } }', {
      operationName: 'P',
      variables: { id: '7' },
    });
    const expected = await execute({
      schema,
      document: op.document,
      variableValues: op.variables,
    });

    expect(await execution.run(op)).toEqual(expected);
    expect(execution.stats).toMatchObject({ compiled: 0, interpreted: 1 });
    expect(await execution.run(op)).toEqual(expected);
    expect(await execution.run(op)).toEqual(expected);
    expect(execution.stats).toMatchObject({ compiled: 2, interpreted: 1, documents: 1 });
  });

  it('should compile at once with compileAfter 0', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    await execution.run(operation('{ posts { id } }'));
    expect(execution.stats).toMatchObject({ compiled: 1, interpreted: 0 });
  });

  it('should give resolver errors the extensions and original error that graphql-js gives', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const op = operation('{ post(id: "1") { id secret } }');
    const [expected] = (await execute({ schema, document: op.document })).errors!;
    const result = await execution.run(op);
    expect(execution.stats.compiled).toBe(1);
    expect(result.data).toEqual({ post: { id: '1', secret: null } });
    const [error] = result.errors!;
    expect(error).toBeInstanceOf(GraphQLError);
    expect(error.extensions).toEqual(expected.extensions);
    expect(error.originalError?.message).toBe('no such table: secrets');
    expect(error.path).toEqual(['post', 'secret']);
    expect(error.locations).toEqual([{ line: 1, column: 22 }]);
    expect(error.toJSON()).toEqual(expected.toJSON());
  });

  it('should run subscriptions, and documents without a key, on graphql-js', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    await execution.run(
      operation('subscription { ticks }', { operationType: OperationTypeNode.SUBSCRIPTION }),
    );
    await execution.run(operation('{ posts { id } }', { documentKey: undefined }));
    expect(execution.stats).toMatchObject({ compiled: 0, interpreted: 2, documents: 0 });
  });

  it('should tell operations of one document apart by name', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const source = 'query A { posts { id } } query B { posts { title } }';
    const a = await execution.run(operation(source, { operationName: 'A' }));
    const b = await execution.run(operation(source, { operationName: 'B' }));
    expect(a.data).toEqual({ posts: [{ id: '1' }, { id: '2' }] });
    expect(b.data).toEqual({ posts: [{ title: 'one' }, { title: 'two' }] });
  });

  it('should fall back to graphql-js when graphql-jit cannot compile the operation', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    // No operation of that name: graphql-jit refuses to compile, graphql-js answers the error.
    const result = await execution.run(
      operation('query A { posts { id } }', { operationName: 'Z' }),
    );
    expect(result.errors?.[0].message).toBe('Unknown operation named "Z".');
    expect(execution.stats).toMatchObject({ compiled: 0, interpreted: 1 });
  });

  it('should keep at most maxDocuments documents, forgetting the least recently used', async () => {
    const execution = new CompiledExecution({ compileAfter: 0, maxDocuments: 2 });
    const first = operation('{ posts { id } }');
    await execution.run(first);
    await execution.run(operation('{ posts { title } }'));
    await execution.run(first);
    await execution.run(operation('{ posts { id title } }'));
    expect(execution.stats.documents).toBe(2);
    await execution.run(first);
    expect(execution.stats.compiled).toBe(5);
  });
});

describe('compiledExecutionGateway', () => {
  it('should hand Apollo the schema when it loads, and run operations compiled', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const gateway = compiledExecutionGateway(() => schema, execution);
    let loaded: GraphQLSchema | null = null;
    gateway.onSchemaLoadOrUpdate(({ apiSchema }) => (loaded = apiSchema));
    const { executor } = await gateway.load({ apollo: { keyHash: '', graphRef: '' } as never });
    expect(loaded).toBe(schema);

    const document = parse('{ posts { id } }');
    const result = await executor!({
      schema,
      document,
      operationName: null,
      operation: document.definitions[0],
      request: { variables: {} },
      context: {},
      queryHash: 'hash',
    } as never);
    expect(result).toEqual({ data: { posts: [{ id: '1' }, { id: '2' }] } });
    expect(execution.stats.compiled).toBe(1);
  });
});
