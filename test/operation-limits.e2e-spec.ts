import type { LRUCache } from 'lru-cache';

import { OperationRules } from '../src/blog';
import { CREATE_POST, fragmentBomb } from './helpers/documents';
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
