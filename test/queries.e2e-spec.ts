import { TestApp } from './helpers/test-app';

const CREATE = `mutation ($input: CreatePostInput!) { createPost(input: $input) { id } }`;
const MISSING_ID = '01900000-0000-7000-8000-000000000000';

describe('Users and posts queries (e2e)', () => {
  let t: TestApp;
  let ada: Awaited<ReturnType<TestApp['signUp']>>;
  let bob: Awaited<ReturnType<TestApp['signUp']>>;
  const adaPosts: string[] = [];

  beforeAll(async () => {
    t = await TestApp.start();
    ada = await t.signUp({ name: 'Ada', handle: 'ada', email: 'ada@example.com' });
    bob = await t.signUp({ name: 'Bob', handle: 'bob', email: 'bob@example.com' });
    for (let i = 1; i <= 5; i++) {
      const { createPost } = await t.data(
        CREATE,
        { input: { title: `Ada ${i}`, content: `c${i}` } },
        ada.token,
      );
      adaPosts.push(createPost.id);
    }
    await t.data(CREATE, { input: { title: 'Bob 1', content: 'b' } }, bob.token);
  });
  afterAll(() => t.close());

  it('should return a user with nested posts and their author in one request', async () => {
    const { user } = await t.data(
      `query ($id: ID!) { user(id: $id) { id name handle avatar createdAt postsCount posts(first: 2) { title author { name } } } }`,
      { id: ada.user.id },
    );
    expect(user).toMatchObject({
      id: ada.user.id,
      name: 'Ada',
      handle: 'ada',
      avatar: null,
      postsCount: 5,
    });
    expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
    expect(user.posts).toEqual([
      { title: 'Ada 5', author: { name: 'Ada' } },
      { title: 'Ada 4', author: { name: 'Ada' } },
    ]);
  });

  it('should return null, not an error, for a missing user or post', async () => {
    const response = await t.gql(`query ($id: ID!) { user(id: $id) { id } post(id: $id) { id } }`, {
      id: MISSING_ID,
    });
    expect(response).toEqual({ data: { user: null, post: null } });
  });

  it('should find a user by handle, case-insensitively', async () => {
    const { userByHandle } = await t.data(`{ userByHandle(handle: "ADA") { id } }`);
    expect(userByHandle).toEqual({ id: ada.user.id });
    expect((await t.data(`{ userByHandle(handle: "nobody") { id } }`)).userByHandle).toBeNull();
  });

  it('should show the email to the user themself and to admins, and an empty string to others', async () => {
    const query = `query ($id: ID!) { user(id: $id) { email } }`;
    expect((await t.data(query, { id: ada.user.id }, ada.token)).user.email).toBe(
      'ada@example.com',
    );
    expect((await t.data(query, { id: ada.user.id }, bob.token)).user.email).toBe('');
    expect((await t.data(query, { id: ada.user.id })).user.email).toBe('');
    const admin = await t.signUp();
    await t.makeAdmin(admin.user.id);
    expect((await t.data(query, { id: ada.user.id }, admin.token)).user.email).toBe(
      'ada@example.com',
    );
    const { users } = await t.data(`{ users { email } }`, {}, bob.token);
    expect(users.filter((u: { email: string }) => u.email !== '')).toEqual([
      { email: 'bob@example.com' },
    ]);
  });

  it('should list posts newest first and filter them by author', async () => {
    const { posts } = await t.data(`{ posts { title } }`);
    expect(posts.map((p: { title: string }) => p.title)).toEqual([
      'Bob 1',
      'Ada 5',
      'Ada 4',
      'Ada 3',
      'Ada 2',
      'Ada 1',
    ]);
    const byAda = await t.data(`query ($a: ID) { posts(authorId: $a) { id } }`, { a: ada.user.id });
    expect(byAda.posts.map((p: { id: string }) => p.id)).toEqual([...adaPosts].reverse());
  });

  it('should page posts with first and after', async () => {
    const query = `query ($after: ID) { posts(first: 2, after: $after, authorId: "${ada.user.id}") { id } }`;
    const pages: string[][] = [];
    let after: string | null = null;
    for (;;) {
      const { posts }: { posts: { id: string }[] } = await t.data(query, { after });
      if (posts.length === 0) break;
      pages.push(posts.map((p) => p.id));
      after = posts[posts.length - 1].id;
    }
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual([...adaPosts].reverse());
  });

  it('should page users in id order', async () => {
    const all = (await t.data(`{ users(first: 100) { id } }`)).users.map(
      (u: { id: string }) => u.id,
    );
    expect(all).toEqual([...all].sort());
    const second = await t.data(`query ($after: ID) { users(first: 1, after: $after) { id } }`, {
      after: all[0],
    });
    expect(second.users).toEqual([{ id: all[1] }]);
  });

  it('should page nested posts with the same rules', async () => {
    const { user } = await t.data(
      `query ($id: ID!, $after: ID) { user(id: $id) { posts(first: 2, after: $after) { id } } }`,
      {
        id: ada.user.id,
        after: adaPosts[3],
      },
    );
    expect(user.posts.map((p: { id: string }) => p.id)).toEqual([adaPosts[2], adaPosts[1]]);
  });

  it('should default first to 20', async () => {
    for (let i = 0; i < 20; i++)
      await t.data(CREATE, { input: { title: `More ${i}`, content: 'x' } }, bob.token);
    expect((await t.data(`{ posts { id } }`)).posts).toHaveLength(20);
  });

  it.each([
    ['first above 100', `{ posts(first: 101) { id } }`, 'first'],
    ['a negative first', `{ users(first: -1) { id } }`, 'first'],
    ['a nested first above 100', `{ users { posts(first: 500) { id } } }`, 'first'],
    ['an after that is not an id', `{ posts(after: "nope") { id } }`, 'after'],
  ])('should answer BAD_USER_INPUT for %s', async (_, query, field) => {
    const response = await t.gql(query);
    expect(response.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field });
  });

  it('should answer the me query with the signed-in user and null when anonymous', async () => {
    expect((await t.data(`{ me { id handle } }`, {}, bob.token)).me).toEqual({
      id: bob.user.id,
      handle: 'bob',
    });
    expect((await t.data(`{ me { id } }`)).me).toBeNull();
  });
});
