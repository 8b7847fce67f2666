import { Post } from '../src/blog';
import { TestApp } from './helpers/test-app';

const CREATE_WITH_INPUT = `mutation ($input: CreatePostInput!) {
  createPost(input: $input) { id title content publishedAt author { id } }
}`;
const CREATE_FLAT = `mutation ($title: String!, $content: String!, $authorId: ID!) {
  createPost(title: $title, content: $content, authorId: $authorId) { id title content author { id name } }
}`;

describe('createPost (e2e)', () => {
  let t: TestApp;
  let alice: Awaited<ReturnType<TestApp['signUp']>>;
  let bob: Awaited<ReturnType<TestApp['signUp']>>;
  const postCount = () => t.dataSource.getRepository(Post).count();

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.signUp({ name: 'Alice' });
    bob = await t.signUp({ name: 'Bob' });
  });
  afterAll(() => t.close());

  it('should create a published post from the client form, input: {title, content}', async () => {
    const { createPost } = await t.data(
      CREATE_WITH_INPUT,
      { input: { title: ' Hello ', content: 'World' } },
      alice.token,
    );
    expect(createPost).toMatchObject({
      title: 'Hello',
      content: 'World',
      author: { id: alice.user.id },
    });
    expect(createPost.publishedAt).not.toBeNull();
    const { posts } = await t.data(`{ posts { id title content } }`);
    expect(posts[0]).toEqual({ id: createPost.id, title: 'Hello', content: 'World' });
  });

  it('should create a post from the server form, title/content/authorId with the viewer as author', async () => {
    const { createPost } = await t.data(
      CREATE_FLAT,
      { title: 'Flat', content: 'Form', authorId: alice.user.id },
      alice.token,
    );
    expect(createPost).toMatchObject({
      title: 'Flat',
      content: 'Form',
      author: { id: alice.user.id, name: 'Alice' },
    });
    const { post } = await t.data(`query ($id: ID!) { post(id: $id) { id title } }`, {
      id: createPost.id,
    });
    expect(post).toEqual({ id: createPost.id, title: 'Flat' });
  });

  it('should give every post a UUIDv7 id', async () => {
    const { createPost } = await t.data(
      CREATE_WITH_INPUT,
      { input: { title: 'Id', content: 'v7' } },
      alice.token,
    );
    expect(createPost.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('should answer FORBIDDEN, and write nothing, when authorId is somebody else', async () => {
    const before = await postCount();
    const response = await t.gql(
      CREATE_FLAT,
      { title: 'T', content: 'C', authorId: bob.user.id },
      alice.token,
    );
    expect(response.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(response.data).toBeNull();
    expect(await postCount()).toBe(before);
  });

  it('should let an admin post for another user', async () => {
    const admin = await t.signUp({ name: 'Admin' });
    await t.makeAdmin(admin.user.id);
    const { createPost } = await t.data(
      CREATE_FLAT,
      { title: 'For Bob', content: 'By admin', authorId: bob.user.id },
      admin.token,
    );
    expect(createPost.author.id).toBe(bob.user.id);
  });

  it('should answer UNAUTHENTICATED, and write nothing, without a signed-in user', async () => {
    const before = await postCount();
    const withInput = await t.gql(CREATE_WITH_INPUT, { input: { title: 'T', content: 'C' } });
    const flat = await t.gql(CREATE_FLAT, { title: 'T', content: 'C', authorId: alice.user.id });
    expect(withInput.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(flat.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(await postCount()).toBe(before);
  });

  it('should answer BAD_USER_INPUT when both forms are used in one call', async () => {
    const before = await postCount();
    const response = await t.gql(
      `mutation { createPost(input: {title: "A", content: "B"}, title: "A", content: "B") { id } }`,
      {},
      alice.token,
    );
    expect(response.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(await postCount()).toBe(before);
  });

  it('should answer BAD_USER_INPUT when neither form is used', async () => {
    const response = await t.gql(`mutation { createPost { id } }`, {}, alice.token);
    expect(response.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('should answer BAD_USER_INPUT naming the missing field of the server form', async () => {
    const response = await t.gql(
      `mutation { createPost(title: "Only a title") { id } }`,
      {},
      alice.token,
    );
    expect(response.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'content' });
  });

  it.each([
    ['input.title', { title: '   ', content: 'C' }],
    ['input.title', { title: 'x'.repeat(201), content: 'C' }],
    ['input.content', { title: 'T', content: '' }],
    ['input.content', { title: 'T', content: 'x'.repeat(50_001) }],
  ])('should answer BAD_USER_INPUT naming %s when it is out of bounds', async (field, input) => {
    const before = await postCount();
    const response = await t.gql(CREATE_WITH_INPUT, { input }, alice.token);
    expect(response.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field });
    expect(await postCount()).toBe(before);
  });

  it('should answer BAD_USER_INPUT, not a server error, for an admin naming a user who does not exist', async () => {
    const admin = await t.signUp();
    await t.makeAdmin(admin.user.id);
    const response = await t.gql(
      CREATE_FLAT,
      { title: 'T', content: 'C', authorId: '01900000-0000-7000-8000-000000000000' },
      admin.token,
    );
    expect(response.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'authorId' });
  });
});
