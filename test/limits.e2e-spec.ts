import { insertUsersWithPosts } from './helpers/fixtures';
import { TestApp } from './helpers/test-app';

describe('Query cost limit (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { GRAPHQL_MAX_COMPLEXITY: '5000' } });
    await insertUsersWithPosts(t.dataSource, 3, 3);
  });
  afterAll(() => t.close());

  it('should refuse, before running it, a query whose nested pages multiply past the limit', async () => {
    await t.fannedOut();
    const before = t.statements.statements.length;
    const response = await t.gql(
      `{ users(first: 100) { posts(first: 100) { comments(first: 100) { text } } } }`,
    );
    expect(response.data).toBeUndefined();
    expect(response.errors?.[0]).toMatchObject({
      message: expect.stringContaining('too complex'),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', maxComplexity: 5000 },
    });
    expect(response.errors?.[0].extensions).toHaveProperty('complexity');
    expect(t.statements.statements.length).toBe(before);
  });

  it('should count the page sizes given in variables', async () => {
    const query = `query ($n: Int) { users(first: $n) { posts(first: $n) { title } } }`;
    expect((await t.gql(query, { n: 100 })).errors?.[0].extensions?.code).toBe(
      'GRAPHQL_VALIDATION_FAILED',
    );
    expect((await t.gql(query, { n: 3 })).errors).toBeUndefined();
  });

  it("should let the specification's queries through", async () => {
    const response = await t.gql(
      `{ feed(first: 20) { id content createdAt author { name handle avatar } likesCount isLikedByMe } }`,
    );
    expect(response.errors).toBeUndefined();
    expect(response.data?.feed).toHaveLength(9);
  });
});

describe('Rate limit on signUp and logIn (e2e)', () => {
  let t: TestApp;
  const LOG_IN = `mutation { logIn(input: {email: "nobody@example.com", password: "wrong-password"}) { token } }`;

  beforeAll(async () => {
    t = await TestApp.start({ env: { AUTH_RATE_LIMIT: '3', AUTH_RATE_LIMIT_WINDOW_MS: '60000' } });
  });
  afterAll(() => t.close());

  it('should answer TOO_MANY_REQUESTS past the limit, and leave other operations alone', async () => {
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await t.gql(LOG_IN)).errors?.[0].extensions?.code);
    expect(codes).toEqual([
      'UNAUTHENTICATED',
      'UNAUTHENTICATED',
      'UNAUTHENTICATED',
      'TOO_MANY_REQUESTS',
      'TOO_MANY_REQUESTS',
    ]);
    const blocked = await t.gql(LOG_IN);
    expect(blocked.errors?.[0].message).toMatch(/try again in \d+ s/);
    expect(await t.gql(`{ posts { id } }`)).toEqual({ data: { posts: [] } });
  });
});
