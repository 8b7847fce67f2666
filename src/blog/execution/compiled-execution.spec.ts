import {
  buildSchema,
  execute,
  getOperationAST,
  GraphQLObjectType,
  GraphQLSchema,
  parse,
} from 'graphql';

import { CompiledExecution } from './compiled-execution';
import { compiledExecutionGateway } from './compiled-execution-gateway';
import { compiledExecutionPlugin } from './compiled-execution-plugin';
import { RequestScope } from '../common/request-scope';

const schema = buildSchema(`
  input Filter { title: String, ids: [ID!] }
  type Query { post(id: ID!): Post, posts(first: Int, filter: Filter): [Post!]!, strict: Post! }
  type Post { id: ID!, title: String!, secret: String, broken: String! }
  type Mutation { touch: Int!, fail: Int! }
  type Subscription { ticks: Int! }
`);
const fields = (schema.getType('Post') as GraphQLObjectType).getFields();
fields.secret.resolve = () => {
  throw new Error('no such table: secrets');
};
fields.broken.resolve = () => null;
const query = schema.getQueryType()!.getFields();
query.post.resolve = (_, { id }) => ({ id, title: `Post ${id}` });
query.posts.resolve = () => [
  { id: '1', title: 'one' },
  { id: '2', title: 'two' },
];
query.strict.resolve = () => ({ id: '3', title: 'three' });
let touches = 0;
const mutation = schema.getMutationType()!.getFields();
mutation.touch.resolve = () => ++touches;
mutation.fail.resolve = () => {
  throw new Error('nope');
};

function operation(
  source: string,
  extra: Partial<Parameters<CompiledExecution['run']>[0]> = {},
): Parameters<CompiledExecution['run']>[0] {
  const document = parse(source);
  return {
    schema,
    document,
    operation: getOperationAST(document, extra.operationName) ?? undefined,
    contextValue: {},
    source,
    documentKey: source,
    ...extra,
  };
}

function graphqlJs(op: Parameters<CompiledExecution['run']>[0]) {
  return execute({
    schema,
    document: op.document,
    operationName: op.operationName,
    variableValues: op.variables,
    contextValue: {},
  });
}

/** Runs `op` `times` times, letting queued compiles finish after each run. */
async function runs(
  execution: CompiledExecution,
  op: Parameters<CompiledExecution['run']>[0],
  times: number,
) {
  const results = [];
  for (let i = 0; i < times; i++) {
    results.push(await execution.run(op));
    await execution.idle();
  }
  return results;
}

describe('CompiledExecution', () => {
  it('should run a query on graphql-js until it has run compileAfter times, then compiled, with the same answer', async () => {
    const execution = new CompiledExecution({ compileAfter: 2 });
    const op = operation('query P($id: ID!) { post(id: $id) { id title } posts { title } }', {
      operationName: 'P',
      variables: { id: '7' },
    });
    const expected = await graphqlJs(op);

    const results = await runs(execution, op, 5);
    for (const result of results) expect(result).toEqual(expected);
    expect(execution.stats).toMatchObject({ compiled: 2, interpreted: 3, documents: 1 });
  });

  it('should compile four runs on by default', async () => {
    const execution = new CompiledExecution();
    await runs(execution, operation('{ posts { id } }'), 6);
    expect(execution.stats).toMatchObject({ compiled: 1, interpreted: 5 });
  });

  it('should never make a request wait for a compile', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const op = operation('{ posts { id } }');
    await execution.run(op);
    expect(execution.stats).toMatchObject({ queued: 1, documents: 0 });
    // Queued, not compiled yet: the next run is graphql-js's too.
    await execution.run(op);
    expect(execution.stats).toMatchObject({ interpreted: 2, compiled: 0 });
    await execution.idle();
    await execution.run(op);
    expect(execution.stats).toMatchObject({ compiled: 1, documents: 1, queued: 0 });
  });

  it('should run mutations and subscriptions on graphql-js only', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const write = operation('mutation { a: touch b: fail c: touch }');
    const before = touches;
    const [first, second] = await runs(execution, write, 2);
    // graphql-js stops at the first failing non-null root field: c never runs.
    expect(first).toMatchObject({ data: null });
    expect(second).toMatchObject({ data: null });
    expect(touches).toBe(before + 2);
    await runs(execution, operation('subscription { ticks }'), 2);
    expect(execution.stats).toMatchObject({ compiled: 0, interpreted: 4, documents: 0 });
  });

  it.each([
    ['@include', 'query($on: Boolean!) { posts { id title @include(if: $on) } }', { on: true }],
    [
      '@skip in a fragment',
      '{ posts { ...F @skip(if: true) ...F } } fragment F on Post { id }',
      {},
    ],
    [
      'a variable in an object literal',
      'query($t: String) { posts(filter: {title: $t}) { id } }',
      {},
    ],
    [
      'a variable in a list literal',
      'query($i: ID!) { posts(filter: {ids: [$i]}) { id } }',
      { i: '1' },
    ],
    ['a non-null variable with a default', 'query($f: Int! = 2) { posts(first: $f) { id } }', {}],
    ['introspection', '{ __schema { queryType { name } } }', {}],
  ])('should never compile a query with %s', async (_, source, variables) => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const op = operation(source, { variables });
    const expected = await graphqlJs(op);
    const results = await runs(execution, op, 3);
    for (const result of results) expect(result).toEqual(expected);
    expect(execution.stats).toMatchObject({ compiled: 0, refused: 1 });
  });

  it('should answer invalid variables of a compiled query with graphql-js errors', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const op = operation('query($f: Int) { posts(first: $f) { id } }', { variables: { f: 1 } });
    await runs(execution, op, 2);
    expect(execution.stats.compiled).toBe(1);
    const bad = { ...op, variables: { f: 'many' } };
    const result = await execution.run(bad);
    expect(result).toEqual(await graphqlJs(bad));
    expect(result.errors![0].nodes).toHaveLength(1);
  });

  it('should answer a compiled query that fails with the errors of graphql-js', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const op = operation('{ post(id: "1") { id secret } strict { broken } }');
    const expected = await graphqlJs(op);
    const results = await runs(execution, op, 3);
    for (const result of results) {
      expect(result).toEqual(expected);
      expect(result.errors!.map((error) => error.toJSON())).toEqual(
        expected.errors!.map((error) => error.toJSON()),
      );
      expect(result.errors![0].nodes).toEqual(expected.errors![0].nodes);
      expect(result.errors![0].source).toBe(op.document.loc!.source);
    }
    expect(execution.stats).toMatchObject({ compiled: 0, interpreted: 3, documents: 1 });
  });

  it('should run graphql-js after a failed compiled run with the whole response budget', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const op = operation('{ post(id: "1") { id title secret } }');
    // Each title takes 600 of a budget of 1,000: two runs on one budget would pass it.
    fields.title.resolve = (post: { title: string }, _args, context: { scope: RequestScope }) => {
      context.scope.chargeResponse(600);
      return post.title;
    };
    try {
      for (let i = 0; i < 3; i++) {
        const scope = new RequestScope();
        scope.limitResponse(1_000);
        const result = await execution.run({ ...op, contextValue: { scope } });
        await execution.idle();
        expect(result.errors?.map((error) => error.message)).toEqual(['no such table: secrets']);
        expect(result.data).toEqual({ post: { id: '1', title: 'Post 1', secret: null } });
      }
      expect(execution.stats).toMatchObject({ interpreted: 3, documents: 1 });
    } finally {
      fields.title.resolve = undefined;
    }
  });

  it('should stop compiling a document whose compiled runs fail more often than not', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const good = operation('query($id: ID!) { post(id: $id) { id } }', { variables: { id: '1' } });
    const bad = { ...good, variables: { id: 'x' } };
    query.post.resolve = (_, { id }) => {
      if (id === 'x') throw new Error('not an id');
      return { id, title: `Post ${id}` };
    };
    try {
      await runs(execution, good, 3);
      for (let i = 0; i < 7; i++) expect(await execution.run(bad)).toEqual(await graphqlJs(bad));
      // 2 answered, 7 replaced: still compiled while fewer than 8 were replaced.
      expect(execution.stats).toMatchObject({ compiled: 2, documents: 1 });
      await execution.run(bad);
      expect(execution.stats).toMatchObject({ documents: 0, refused: 1 });
      await execution.run(good);
      expect(execution.stats.compiled).toBe(2);
    } finally {
      query.post.resolve = (_, { id }) => ({ id, title: `Post ${id}` });
    }
  });

  it('should tell operations of one document apart by name', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const source = 'query A { posts { id } } query B { posts { title } }';
    const [, a] = await runs(execution, operation(source, { operationName: 'A' }), 2);
    const [, b] = await runs(execution, operation(source, { operationName: 'B' }), 2);
    expect(a.data).toEqual({ posts: [{ id: '1' }, { id: '2' }] });
    expect(b.data).toEqual({ posts: [{ title: 'one' }, { title: 'two' }] });
    expect(execution.stats.compiled).toBe(2);
  });

  it('should answer an unknown operation name as graphql-js does', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const op = operation('query A { posts { id } }', { operationName: 'Z' });
    const [result] = await runs(execution, op, 2);
    expect(result.errors?.[0].message).toBe('Unknown operation named "Z".');
    expect(execution.stats).toMatchObject({ compiled: 0, interpreted: 2, queued: 0 });
  });

  it('should not compile a selection larger than maxSelections fields, fragments expanded', async () => {
    const execution = new CompiledExecution({ compileAfter: 0, maxSelections: 5 });
    const source = '{ a: posts { ...F } b: posts { ...F } } fragment F on Post { id title }';
    await runs(execution, operation(source), 2);
    expect(execution.stats).toMatchObject({ compiled: 0, refused: 1 });
    await runs(execution, operation('{ a: posts { ...F } } fragment F on Post { id title }'), 2);
    expect(execution.stats.compiled).toBe(1);
  });

  it('should compile at most compilesPerMinute documents a minute', async () => {
    const execution = new CompiledExecution({ compileAfter: 0, compilesPerMinute: 2 });
    for (const field of ['id', 'title', 'secret']) {
      await runs(execution, operation(`{ posts { ${field} } }`), 1);
    }
    expect(execution.stats.documents).toBe(2);
  });

  it('should queue at most 100 documents, holding no request context', async () => {
    const execution = new CompiledExecution({ compileAfter: 0, compilesPerMinute: 1000 });
    const context = { request: 'a large request context' };
    for (let i = 0; i < 150; i++) {
      await execution.run(operation(`{ a${i}: posts { id } }`, { contextValue: context }));
    }
    expect(execution.stats.queued).toBe(100);
    const { queue } = execution as unknown as { queue: { waiting: Map<string, object> } };
    const queued = [...queue.waiting.values()];
    expect(queued.some((entry) => Object.values(entry).includes(context))).toBe(false);
    await execution.idle();
    expect(execution.stats.documents).toBe(100);
  });

  it('should keep at most maxDocuments documents and maxBytes of compiled code', async () => {
    const byCount = new CompiledExecution({ compileAfter: 0, maxDocuments: 2 });
    const byBytes = new CompiledExecution({ compileAfter: 0, maxBytes: 1024 });
    for (const execution of [byCount, byBytes]) {
      for (const field of ['id', 'title', 'secret']) {
        await runs(execution, operation(`{ posts { ${field} } }`), 1);
      }
    }
    expect(byCount.stats.documents).toBe(2);
    expect(byBytes.stats.documents).toBe(0);
    expect(byBytes.stats.bytes).toBe(0);
  });

  it('should compile from a fresh parse, never touching the document Apollo caches', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const op = operation('{ posts { id title } }');
    const before = JSON.stringify(op.document);
    await runs(execution, op, 3);
    expect(execution.stats.compiled).toBe(2);
    expect(JSON.stringify(op.document)).toBe(before);
  });
});

describe('compiledExecutionGateway', () => {
  async function executor(execution: CompiledExecution) {
    const gateway = compiledExecutionGateway(() => schema, execution);
    let loaded: GraphQLSchema | null = null;
    gateway.onSchemaLoadOrUpdate(({ apiSchema }) => (loaded = apiSchema));
    const { executor } = await gateway.load({ apollo: { keyHash: '', graphRef: '' } as never });
    expect(loaded).toBe(schema);
    return executor!;
  }

  it('should hand Apollo the schema when it loads, and run repeated queries compiled', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const run = await executor(execution);
    const source = '{ posts { id } }';
    const document = parse(source);
    const request = {
      schema,
      document,
      source,
      operationName: null,
      operation: document.definitions[0],
      request: { variables: {} },
      context: {},
      queryHash: 'hash',
    } as never;
    expect(await run(request)).toEqual({ data: { posts: [{ id: '1' }, { id: '2' }] } });
    await execution.idle();
    expect(await run(request)).toEqual({ data: { posts: [{ id: '1' }, { id: '2' }] } });
    expect(execution.stats.compiled).toBe(1);
  });

  it("should answer graphql-js's error when Apollo resolved no operation", async () => {
    const run = await executor(new CompiledExecution({ compileAfter: 0 }));
    const source = 'query A { posts { id } } query B { posts { id } }';
    const result = await run({
      schema,
      document: parse(source),
      source,
      operationName: null,
      operation: undefined,
      request: { variables: {}, operationName: 'C' },
      context: {},
      queryHash: 'hash',
    } as never);
    expect(result).toMatchObject({ errors: [{ message: 'Unknown operation named "C".' }] });
  });
});

describe('compiledExecutionPlugin', () => {
  async function responseFor(execution: CompiledExecution, source: string, variables = {}) {
    const listener = await compiledExecutionPlugin(execution).requestDidStart!({} as never);
    const document = parse(source);
    return listener!.responseForOperation!({
      schema,
      document,
      source,
      operation: getOperationAST(document) ?? undefined,
      request: { query: source, variables },
      contextValue: {},
      queryHash: source,
    } as never);
  }

  it('should leave a query to Apollo until it is compiled, then answer it as graphql-js would', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const source = '{ posts { id title } }';
    expect(await responseFor(execution, source)).toBeNull();
    await execution.idle();
    const response = await responseFor(execution, source);
    expect(response?.body).toEqual({
      kind: 'single',
      singleResult: await graphqlJs(operation(source)),
    });
    expect(execution.stats).toMatchObject({ compiled: 1, interpreted: 1 });
  });

  it('should leave to Apollo a compiled query that fails, and mutations', async () => {
    const execution = new CompiledExecution({ compileAfter: 0 });
    const failing = '{ posts { id secret } }';
    await responseFor(execution, failing);
    await execution.idle();
    expect(await responseFor(execution, failing)).toBeNull();
    expect(await responseFor(execution, 'mutation { touch }')).toBeNull();
    expect(execution.stats).toMatchObject({ compiled: 0, interpreted: 3 });
  });
});
