import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  getNullableType,
  GraphQLInputType,
  GraphQLObjectType,
  IntrospectionQuery,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import type { LRUCache } from 'lru-cache';

import { OperationRules } from '../src/blog';
import { CREATE_POST, fragmentBomb, MISSING_ID } from './helpers/documents';
import { insertUsersWithPosts } from './helpers/fixtures';
import { TestApp, TestUser } from './helpers/test-app';

const aliases = (count: number, selection: string) =>
  Array.from({ length: count }, (_, i) => `a${i}: ${selection}`).join(' ');

/** The document limits out of the way, so that these tests reach the cost check. */
const LOOSE_DOCUMENT_LIMITS = {
  GRAPHQL_MAX_ALIASES: '100000',
  GRAPHQL_MAX_DEPTH: '100',
  GRAPHQL_MAX_TOKENS: '10000000',
  GRAPHQL_MAX_BODY_BYTES: '10485760',
};

describe('Operation limits fail closed (e2e)', () => {
  let t: TestApp;
  let author: TestUser;

  beforeAll(async () => {
    t = await TestApp.start({ env: LOOSE_DOCUMENT_LIMITS });
    await insertUsersWithPosts(t.dataSource, 2, 2);
    author = await t.signUp();
  });
  afterAll(() => t.close());

  /** POSTs a document and returns the status and body, counting the statements it ran. */
  const send = async (query: string, variables: Record<string, unknown> = {}) => {
    await t.fannedOut();
    const before = t.statements.statements.length;
    const response = await t.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .send({ query, variables });
    return {
      status: response.status,
      body: response.body as { data?: unknown; errors?: { message: string; extensions?: any }[] },
      statements: t.statements.statements.length - before,
    };
  };

  it('should refuse with 400, before running it, a costly query padded with 10,000 aliases', async () => {
    const nested = `post(id: "00000000-0000-4000-8000-000000000000") { comments(first: 100) { post { comments(first: 100) { post { comments(first: 100) { id } } } } } }`;
    const { status, body, statements } = await send(
      `{ ${nested} ${aliases(10_000, '__typename')} }`,
    );
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0].extensions).toMatchObject({
      code: 'GRAPHQL_VALIDATION_FAILED',
      limit: 'complexity',
    });
    expect(body.errors?.[0].extensions).not.toHaveProperty('http');
    expect(statements).toBe(0);
  });

  it('should refuse a nested query whose rows multiply past the limit', async () => {
    const { status, body } = await send(
      `{ posts(first: 1) { comments(first: 100) { post { comments(first: 100) { post { comments(first: 100) { id } } } } } } }`,
    );
    expect(status).toBe(400);
    expect(body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('should count the fan-out of fragments, and refuse a fragment bomb', async () => {
    const { status, body, statements } = await send(fragmentBomb('{ posts(first: 1)', 16));
    expect(status).toBe(400);
    expect(body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(statements).toBe(0);
  });

  it('should charge every totalCount for its COUNT, even on empty pages', async () => {
    const { status, body, statements } = await send(
      `{ ${aliases(300, 'postsConnection(first: 0) { totalCount }')} }`,
    );
    expect(status).toBe(400);
    expect(body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(statements).toBe(0);
    const small = await send(`{ postsConnection(first: 0) { totalCount } }`);
    expect(small.body).toEqual({ data: { postsConnection: { totalCount: 4 } } });
  });

  it('should charge a list field at least 1 even at first: 0', async () => {
    const refused = await TestApp.start({
      env: { ...LOOSE_DOCUMENT_LIMITS, GRAPHQL_MAX_COMPLEXITY: '50' },
    });
    try {
      const response = await refused.gql(`{ ${aliases(60, 'posts(first: 0) { id }')} }`);
      expect(response.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      const allowed = await refused.gql(`{ ${aliases(20, 'posts(first: 0) { id }')} }`);
      expect(allowed.errors).toBeUndefined();
    } finally {
      await refused.close();
    }
  });

  it('should refuse variables that do not fit their declarations with BAD_USER_INPUT', async () => {
    const { status, body } = await send(`query ($n: Int) { posts(first: $n) { id } }`, {
      n: 'many',
    });
    expect(status).toBe(400);
    expect(body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it.each([
    ['a variable', { title: 'Nul\u0000title', content: 'Text' }, 'input'],
    ['a nested variable', { title: 'Fine', content: 'Nul \u0000 content' }, 'input'],
  ])(
    'should refuse a NUL character in %s with BAD_USER_INPUT and write nothing',
    async (_, input, field) => {
      const before = await t.dataSource.query('SELECT COUNT(*) AS n FROM posts');
      const response = await t.gql(CREATE_POST, { input }, author.token);
      expect(response.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
      expect(await t.dataSource.query('SELECT COUNT(*) AS n FROM posts')).toEqual(before);
    },
  );

  it('should refuse a NUL character in a literal of the document', async () => {
    const before = await t.dataSource.query('SELECT COUNT(*) AS n FROM posts');
    const response = await t.gql(
      `mutation { createPost(input: { title: "Nul\\u0000", content: "Text" }) { id } }`,
      {},
      author.token,
    );
    expect(response.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(await t.dataSource.query('SELECT COUNT(*) AS n FROM posts')).toEqual(before);
  });
});

describe('Operation limits: the cost cache stays bounded (e2e)', () => {
  it('should not grow with junk variables the operation does not declare', async () => {
    const t = await TestApp.start();
    try {
      const { costs } = (
        t.app.get(OperationRules) as unknown as { cost: { costs: LRUCache<string, number> } }
      ).cost;
      const junk = 'x'.repeat(10_000);
      for (let i = 0; i < 50; i++) {
        const response = await t.gql(`query ($n: Int) { posts(first: $n) { id } }`, {
          n: 1,
          [`junk${i}`]: junk,
        });
        expect(response.errors).toBeUndefined();
      }
      expect(costs.size).toBe(1);
      const keyLengths = [...costs.keys()].map((key) => key.length);
      expect(Math.max(...keyLengths)).toBeLessThan(100);
    } finally {
      await t.close();
    }
  });
});

describe('Operation limits: expensive fields (e2e)', () => {
  let t: TestApp;
  let author: TestUser;

  beforeAll(async () => {
    t = await TestApp.start({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
    author = await t.signUp();
    for (const tags of [['graphql', 'sqlite'], ['graphql'], ['sqlite', 'postgres']]) {
      await t.data(
        CREATE_POST,
        { input: { title: 'GraphQL with tags', content: 'GraphQL text', tags } },
        author.token,
      );
    }
  });
  afterAll(() => t.close());

  const SEARCH = 'searchPosts(query: "graphql", first: 1) { edges { cursor } }';
  /** POSTs a document, counting the statements it ran. */
  const send = async (query: string, operationName?: string) => {
    const { result, statements } = await t.statements.during(() =>
      t.http
        .post('/graphql')
        .set('content-type', 'application/json')
        .send({ query, operationName }),
    );
    return {
      status: result.status,
      body: result.body as { data?: any; errors?: { message: string; extensions?: any }[] },
      statements: statements.length,
    };
  };
  const expectRefused = (
    { status, body, statements }: Awaited<ReturnType<typeof send>>,
    count: number,
  ) => {
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0].extensions).toEqual({
      code: 'GRAPHQL_VALIDATION_FAILED',
      limit: 'expensiveFields',
      expensiveFields: count,
      maxExpensiveFields: 3,
    });
    expect(body.errors?.[0].message).toMatch(new RegExp(`runs ${count} expensive fields`));
    expect(statements).toBe(0);
  };

  it('should refuse four aliased searches before running any, and run three', async () => {
    expectRefused(await send(`{ ${aliases(4, SEARCH)} }`), 4);
    const three = await send(`{ ${aliases(3, SEARCH)} }`);
    expect(three.status).toBe(200);
    expect(three.body.errors).toBeUndefined();
    expect(Object.keys(three.body.data)).toEqual(['a0', 'a1', 'a2']);
  });

  it('should count counts, filters by tags and tag pages through aliases and fragments', async () => {
    const lists = `fragment Lists on Query { tagged: posts(tags: ["graphql"]) { id } found: ${SEARCH} }`;
    const fragments = `${lists} fragment Page on PostConnection { totalCount }`;
    const three = await send(
      `{ ...Lists all: postsConnection(first: 1) { ...Page } } ${fragments}`,
    );
    expect(three.body.errors).toBeUndefined();
    expect(three.body.data.all.totalCount).toBe(3);
    expect(three.body.data.tagged).toHaveLength(2);

    // The same fragment twice at one place runs once; under another alias, once more.
    const again = `{ ...Lists ...Lists all: postsConnection(first: 1) { ...Page ...Page } } ${fragments}`;
    expect((await send(again)).body.errors).toBeUndefined();
    expectRefused(
      await send(
        `{ ...Lists all: postsConnection(first: 1) { ...Page } more: postsConnection(first: 1) { ...Page } } ${fragments}`,
      ),
      4,
    );
    // A tag's page scans the tag's posts; its count is kept, and counts for nothing.
    expectRefused(
      await send(
        `{ ...Lists a: tag(slug: "graphql") { posts(first: 1) { totalCount } } b: tag(slug: "sqlite") { posts(first: 1) { totalCount } } } ${lists}`,
      ),
      4,
    );
  });

  it('should leave out what is not expensive: plain lists, a kept count, popularTags', async () => {
    const { body } = await send(
      `{ ${aliases(10, 'popularTags(first: 5) { edges { node { slug postsCount } } }')} posts(first: 2) { id } tag(slug: "graphql") { postsCount } myTag: tag(slug: "sqlite") { postsCount } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.tag.postsCount).toBe(2);
  });

  it('should read only the operation that runs', async () => {
    const document = `query Light { ${SEARCH} } query Heavy { ${aliases(5, SEARCH)} }`;
    const light = await send(document, 'Light');
    expect(light.status).toBe(200);
    expect(light.body.errors).toBeUndefined();
    expectRefused(await send(document, 'Heavy'), 5);
  });

  it('should price a search by its rank window, not by its page', async () => {
    const costly = await TestApp.start({
      env: { GRAPHQL_MAX_COMPLEXITY: '1500', SEARCH_RANK_WINDOW: '1000' },
    });
    try {
      const one = await costly.gql(`{ ${SEARCH} }`);
      expect(one.errors).toBeUndefined();
      // Two pages of one post each: 2 × 1,000 matches ranked, over the cost limit.
      const two = await costly.gql(`{ ${aliases(2, SEARCH)} }`);
      expect(two.errors?.[0].extensions).toMatchObject({
        code: 'GRAPHQL_VALIDATION_FAILED',
        limit: 'complexity',
      });
      const { complexity } = two.errors?.[0].extensions as { complexity: number };
      expect(complexity).toBeGreaterThan(2_000);
    } finally {
      await costly.close();
    }
  });

  it('should take its maximum from GRAPHQL_MAX_EXPENSIVE_FIELDS', async () => {
    const strict = await TestApp.start({ env: { GRAPHQL_MAX_EXPENSIVE_FIELDS: '1' } });
    try {
      expect((await strict.gql(`{ ${SEARCH} }`)).errors).toBeUndefined();
      const two = await strict.gql(`{ ${aliases(2, SEARCH)} }`);
      expect(two.errors?.[0].extensions).toMatchObject({
        limit: 'expensiveFields',
        expensiveFields: 2,
        maxExpensiveFields: 1,
      });
    } finally {
      await strict.close();
    }
  });
});

describe('Operation limits: 30 aliases of every list field (e2e)', () => {
  let t: TestApp;
  let reader: TestUser;

  beforeAll(async () => {
    t = await TestApp.start({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
    await insertUsersWithPosts(t.dataSource, 3, 20);
    reader = await t.signUp();
    const writer = await t.signUp();
    await t.data(
      'mutation ($userId: ID!) { followUser(userId: $userId) { id } }',
      { userId: writer.user.id },
      reader.token,
    );
    for (let i = 0; i < 5; i++) {
      const { createPost } = await t.data(
        CREATE_POST,
        {
          input: {
            title: `GraphQL ${i}`,
            content: 'GraphQL and SQLite',
            tags: ['graphql', `t${i}`],
          },
        },
        writer.token,
      );
      await t.data(
        'mutation ($postId: ID!) { bookmarkPost(postId: $postId) { id } likePost(postId: $postId) { id } }',
        { postId: createPost.id },
        reader.token,
      );
    }
  });
  afterAll(() => t.close());

  /** A value of `type` for a required argument. */
  const valueOf = (type: GraphQLInputType): string => {
    const nullable = getNullableType(type);
    if (isListType(nullable)) return `[${valueOf(nullable.ofType)}]`;
    const name = getNamedType(nullable).name;
    if (name === 'Int' || name === 'Float') return '1';
    if (name === 'Boolean') return 'false';
    if (name === 'ID') return `"${MISSING_ID}"`;
    return '"graphql"';
  };
  /** The fields of `type` that take no required argument and are leaves. */
  const leaves = (type: GraphQLObjectType) =>
    Object.values(type.getFields())
      .filter((field) => isLeafType(getNamedType(field.type)))
      .filter((field) => field.args.every((arg) => !isNonNullType(arg.type) || arg.defaultValue))
      .map((field) => field.name)
      .join(' ');
  /** Every leaf of the items a list or a connection holds; or, `light`, one field of each. */
  const selectionOf = (type: GraphQLObjectType, light: boolean): string => {
    const edges = type.getFields().edges;
    if (light) return edges ? 'edges { cursor }' : '__typename';
    if (!edges) return leaves(type);
    const edge = getNamedType(edges.type) as GraphQLObjectType;
    const node = getNamedType(edge.getFields().node.type) as GraphQLObjectType;
    return `${leaves(type)} pageInfo { hasNextPage endCursor } edges { cursor node { ${leaves(node)} } }`;
  };

  /** What 30 aliases of `call` get: refused by a limit (named), or answered; never a 500. */
  const outcomeOf = async (call: string, what: string, token?: string): Promise<string> => {
    const { status, body } = await t.reply(`{ ${aliases(30, call)} }`, {}, token);
    const { errors } = body as { errors?: { extensions?: { code?: string; limit?: string } }[] };
    const codes = [...new Set(errors?.map((error) => error.extensions?.code))];
    expect({ what, status, internal: codes.includes('INTERNAL_SERVER_ERROR') }).toEqual({
      what,
      status: expect.any(Number),
      internal: false,
    });
    if (status === 400) {
      const limit = errors?.[0].extensions?.limit;
      expect({ what, limit }).toEqual({ what, limit: expect.any(String) });
      return `${what}: refused (${limit})`;
    }
    // Answered: data, or the errors of the field itself (a viewer's list, signed out).
    expect({ what, status, answered: 'data' in (body as object) }).toEqual({
      what,
      status: 200,
      answered: true,
    });
    return `${what}: answered${codes.length ? ` (${codes.join()})` : ''}`;
  };

  it('should refuse each by a limit, or answer it, never with an internal error', async () => {
    const schema = buildClientSchema(
      (await t.data<IntrospectionQuery>(getIntrospectionQuery())) as IntrospectionQuery,
    );
    const lists = Object.values(schema.getQueryType()!.getFields()).filter((field) => {
      const type = getNullableType(field.type);
      return isListType(type) || (isObjectType(type) && type.name.endsWith('Connection'));
    });
    expect(lists.map((field) => field.name)).toEqual(
      expect.arrayContaining(['popularTags', 'posts', 'postsConnection', 'searchPosts', 'users']),
    );
    const outcomes: string[] = [];
    for (const field of lists) {
      const required = field.args.filter((arg) => isNonNullType(arg.type) && !arg.defaultValue);
      const takes = (name: string) => field.args.some((arg) => arg.name === name);
      const variants = [
        [],
        ...(takes('first') ? [['first: 100']] : []),
        ...(takes('tags') ? [['tags: ["graphql"]']] : []),
      ];
      const item = getNamedType(field.type) as GraphQLObjectType;
      for (const extra of variants) {
        const args = [...required.map((arg) => `${arg.name}: ${valueOf(arg.type)}`), ...extra];
        const head = `${field.name}${args.length ? `(${args.join(', ')})` : ''}`;
        for (const light of [false, true]) {
          const call = `${head} { ${selectionOf(item, light)} }`;
          const what = `${field.name}(${extra.join()})${light ? ' light' : ''}`;
          outcomes.push(await outcomeOf(call, what));
          outcomes.push(await outcomeOf(call, `${what} signed in`, reader.token));
        }
      }
    }
    // The expensive ones are refused by their number, the rest by their cost or answered.
    expect(outcomes).toEqual(
      expect.arrayContaining([
        'searchPosts(): refused (expensiveFields)',
        'posts(tags: ["graphql"]): refused (expensiveFields)',
        'postsConnection(): refused (expensiveFields)',
        'posts() light: answered',
        'popularTags(first: 100) light signed in: answered',
      ]),
    );
  }, 120_000);
});
