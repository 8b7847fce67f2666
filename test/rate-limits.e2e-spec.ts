import { Post } from '../src/blog';
import { CREATE_POST } from './helpers/documents';
import { GraphQLResponse, TestApp } from './helpers/test-app';

/** A mutation of `count` aliased createPost fields, titled `<prefix> 0`, `<prefix> 1`, … */
function aliasedCreatePosts(count: number, prefix: string): string {
  const fields = Array.from(
    { length: count },
    (_, i) => `p${i}: createPost(input: {title: "${prefix} ${i}", content: "x"}) { id }`,
  );
  return `mutation { ${fields.join(' ')} }`;
}

const codeOf = (response: GraphQLResponse) => response.errors?.[0]?.extensions?.code;
const retryAfterOf = (response: GraphQLResponse) =>
  (response.errors?.[0]?.extensions as { retryAfter?: unknown } | undefined)?.retryAfter;

describe('Write rate limit per signed-in user (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '5' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const postsBy = (authorId: string) => t.dataSource.getRepository(Post).countBy({ authorId });

  it('should refuse a request of 3 aliased createPost with 2 units left, writing nothing', async () => {
    const writer = await t.signUp();
    for (const title of ['One', 'Two', 'Three']) {
      await t.data(CREATE_POST, { input: { title, content: 'x' } }, writer.token);
    }

    const refused = await t.gql(aliasedCreatePosts(3, 'Too many'), {}, writer.token);
    expect(codeOf(refused)).toBe('TOO_MANY_REQUESTS');
    expect(refused.data ?? null).toBeNull();
    expect(await postsBy(writer.user.id)).toBe(3);

    // The 2 units left are still there: a refused request takes none.
    await t.data(aliasedCreatePosts(2, 'Fits'), {}, writer.token);
    expect(await postsBy(writer.user.id)).toBe(5);
    const last = await t.gql(CREATE_POST, { input: { title: 'Six', content: 'x' } }, writer.token);
    expect(codeOf(last)).toBe('TOO_MANY_REQUESTS');
    expect(await postsBy(writer.user.id)).toBe(5);
  });

  it('should say in retryAfter how many seconds to wait', async () => {
    const writer = await t.signUp();
    const refused = await t.gql(aliasedCreatePosts(6, 'Retry'), {}, writer.token);

    expect(codeOf(refused)).toBe('TOO_MANY_REQUESTS');
    const retryAfter = retryAfterOf(refused);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('should count mutation fields reached through fragments, and not __typename', async () => {
    const writer = await t.signUp();
    const document = `mutation {
      __typename
      ...Two
      ... on Mutation { c: createPost(input: {title: "C", content: "x"}) { id } }
    }
    fragment Two on Mutation {
      a: createPost(input: {title: "A", content: "x"}) { id }
      b: createPost(input: {title: "B", content: "x"}) { id }
    }`;
    await t.data(document, {}, writer.token);
    await t.data(aliasedCreatePosts(2, 'Rest'), {}, writer.token);
    expect(await postsBy(writer.user.id)).toBe(5);

    const refused = await t.gql(`mutation { logOutEverywhere }`, {}, writer.token);
    expect(codeOf(refused)).toBe('TOO_MANY_REQUESTS');
  });

  it("should count each user's writes apart, and leave queries and anonymous sign-ups alone", async () => {
    const busy = await t.signUp();
    const idle = await t.signUp();
    await t.data(aliasedCreatePosts(5, 'Busy'), {}, busy.token);
    for (let i = 0; i < 6; i++) await t.data(`{ me { id } }`, {}, busy.token);

    await t.data(aliasedCreatePosts(5, 'Idle'), {}, idle.token);
    expect(await postsBy(idle.user.id)).toBe(5);
  });

  it('should read the viewer once for a limited mutation', async () => {
    const writer = await t.signUp();
    await t.fannedOut();
    const before = t.statements.statements.length;
    await t.data(CREATE_POST, { input: { title: 'Counted', content: 'x' } }, writer.token);
    const viewerReads = t.statements.statements
      .slice(before)
      .filter((statement) => /FROM users u WHERE u\.id = /.test(statement));
    expect(viewerReads).toHaveLength(1);
  });

  it('should refuse a bad token as UNAUTHENTICATED, not count it', async () => {
    const response = await t.gql(aliasedCreatePosts(1, 'Forged'), {}, 'Bearer nonsense');
    expect(codeOf(response)).toBe('UNAUTHENTICATED');
  });
});

describe('Write rate limit turned off (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('should let a user write past the default of 120 a minute with 0', async () => {
    const writer = await t.signUp();
    const { createPost } = await t.data<{ createPost: { id: string } }>(
      CREATE_POST,
      { input: { title: 'Liked', content: 'x' } },
      writer.token,
    );
    const likes = Array.from(
      { length: 25 },
      (_, i) => `l${i}: likePost(postId: "${createPost.id}") { id }`,
    ).join(' ');
    for (let round = 0; round < 5; round++) {
      expect(codeOf(await t.gql(`mutation { ${likes} }`, {}, writer.token))).toBeUndefined();
    }
  });
});

describe('signUp and logIn limits per email (e2e)', () => {
  let t: TestApp;
  const LOG_IN = `mutation ($input: LogInInput!) { logIn(input: $input) { token } }`;

  beforeAll(async () => {
    t = await TestApp.start({ env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT: '3' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const logInFrom = async (address: string, email: string, password: string) => {
    const response = await t.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .set('x-forwarded-for', address)
      .send({ query: LOG_IN, variables: { input: { email, password } } });
    return response.body as GraphQLResponse;
  };

  it('should limit attempts on one email from different client addresses, under a slower ceiling', async () => {
    const victim = await t.signUp();
    const email = victim.user.email;
    // 5 x 3 attempts in 60 x the window (an hour), from any addresses.
    for (let i = 0; i < 15; i++) {
      expect(codeOf(await logInFrom(`10.0.0.${i}`, email, 'a wrong guess'))).toBe(
        'UNAUTHENTICATED',
      );
    }

    // Even the right password, from a new address, in another spelling of the same email.
    const refused = await logInFrom('10.0.0.100', email.toUpperCase(), victim.password);
    expect(codeOf(refused)).toBe('TOO_MANY_REQUESTS');
    expect(retryAfterOf(refused)).toBeGreaterThan(60);
    expect(retryAfterOf(refused)).toBeLessThanOrEqual(3600);

    // That address may still sign in to another account.
    const other = await t.signUp();
    expect(codeOf(await logInFrom('10.0.0.100', other.user.email, other.password))).toBeUndefined();

    // The address the owner signed up from is known to the email: the ceiling leaves it alone.
    const owner = await t.gql(LOG_IN, { input: { email, password: victim.password } });
    expect(codeOf(owner)).toBeUndefined();
  });

  it('should still limit attempts per client address, with retryAfter', async () => {
    const emails = ['a', 'b', 'c', 'd'].map((name) => `${name}-${Date.now()}@example.com`);
    const answers: GraphQLResponse[] = [];
    for (const email of emails) answers.push(await logInFrom('10.0.1.1', email, 'guess'));
    expect(answers.map(codeOf)).toEqual([
      'UNAUTHENTICATED',
      'UNAUTHENTICATED',
      'UNAUTHENTICATED',
      'TOO_MANY_REQUESTS',
    ]);
    expect(retryAfterOf(answers[3])).toBeGreaterThanOrEqual(1);
  });
});
