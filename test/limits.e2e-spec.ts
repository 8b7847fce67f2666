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
