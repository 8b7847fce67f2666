import { GraphQLSchemaHost } from '@nestjs/graphql';
import { GraphQLObjectType } from 'graphql';

import { insertUsersWithPosts } from './helpers/fixtures';
import { TestApp } from './helpers/test-app';

const NESTED = `{ users(first: 100) { id name postsCount posts(first: 10) { id title author { name } } } }`;

describe('Batching of nested fields (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  function statementsFor(query: string, token?: string) {
    return t.counted(query, {}, token);
  }

  it('should send the same number of statements, at most 4, for 10 and for 100 users', async () => {
    await insertUsersWithPosts(t.dataSource, 10, 12);
    const atTen = await statementsFor(NESTED);
    expect(atTen.data.users).toHaveLength(10);
    expect(atTen.data.users.every((u: { posts: unknown[] }) => u.posts.length === 10)).toBe(true);

    await insertUsersWithPosts(t.dataSource, 90, 12);
    const atHundred = await statementsFor(NESTED);
    expect(atHundred.data.users).toHaveLength(100);
    expect(atHundred.data.users.flatMap((u: { posts: unknown[] }) => u.posts)).toHaveLength(1000);

    expect(atHundred.count).toBe(atTen.count);
    expect(atHundred.count).toBeLessThanOrEqual(4);
  });

  it('should give each user their own newest posts and counts', async () => {
    const { data } = await statementsFor(NESTED);
    for (const user of data.users) {
      expect(user.postsCount).toBe(12);
      expect(
        user.posts.every((p: { author: { name: string } }) => p.author.name === user.name),
      ).toBe(true);
      const titles = user.posts.map((p: { title: string }) => Number(p.title.split(' ')[1]));
      expect(titles).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    }
  });

  it('should answer authors from the rows already read, with no statement of their own', async () => {
    // users (1) and their pages of posts (1): each post's author is one of the listed users.
    const { count, data } = await statementsFor(
      '{ users(first: 20) { posts(first: 10) { title author { name } } } }',
    );
    expect(data.users.flatMap((u: { posts: unknown[] }) => u.posts)).toHaveLength(200);
    expect(count).toBe(2);
  });

  it("should answer a comment's post from the page of posts already read", async () => {
    const commenter = await t.signUp();
    const { posts } = await t.data('{ posts(first: 3) { id } }');
    for (const { id } of posts) {
      await t.data(
        'mutation ($id: ID!) { addComment(postId: $id, text: "Nice") { id } }',
        { id },
        commenter.token,
      );
    }
    // The page of posts (1) and their comments (1); each comment's post is on the page.
    const { count, data } = await statementsFor(
      '{ posts(first: 3) { id comments(first: 5) { post { id } } } }',
    );
    for (const post of data.posts) {
      expect(post.comments).toEqual([{ post: { id: post.id } }]);
    }
    expect(count).toBe(2);
  });

  it("should answer a comment's post from an author's page of posts already read", async () => {
    const commenter = await t.signUp();
    const { users } = await t.data('{ users(first: 2) { posts(first: 1) { id } } }');
    for (const { posts } of users) {
      await t.data(
        'mutation ($id: ID!) { addComment(postId: $id, text: "Seen") { id } }',
        { id: posts[0].id },
        commenter.token,
      );
    }
    // The users (1), their pages of posts (1) and the comments (1); each comment's post is on a
    // page already read, so loading it by id costs no statement.
    const { count, data } = await statementsFor(
      '{ users(first: 2) { posts(first: 3) { id comments(first: 5) { post { id title } } } } }',
    );
    const posts = data.users.flatMap(
      (u: { posts: { id: string; comments: { post: { id: string } }[] }[] }) => u.posts,
    );
    const commented = posts.filter((post: { comments: unknown[] }) => post.comments.length > 0);
    expect(commented.length).toBeGreaterThanOrEqual(2);
    for (const post of commented) {
      for (const comment of post.comments) expect(comment.post.id).toBe(post.id);
    }
    expect(count).toBe(3);
  });

  it('should read a post and its author in one statement when the author is selected', async () => {
    const { posts } = await t.data('{ posts(first: 1) { id author { id name } } }');
    const [{ id, author }] = posts;
    const query = `query ($id: ID!) { post(id: $id) { id title author { id name } } }`;
    const { data, count } = await t.counted(query, { id });
    expect(data.post).toMatchObject({ id, author });
    expect(count).toBe(1);
    // The same post in a fragment, and without its author: one statement either way.
    const viaFragment = await statementsFor(
      `{ post(id: "${id}") { ...P } } fragment P on Post { author { name } }`,
    );
    expect(viaFragment.data.post.author.name).toBe(author.name);
    expect(viaFragment.count).toBe(1);
    expect((await statementsFor(`{ post(id: "${id}") { id title } }`)).count).toBe(1);
  });

  it('should keep a draft read with its author hidden from everyone but its author', async () => {
    const writer = await t.signUp();
    const { createPost } = await t.data(
      'mutation { createPost(input: { title: "Draft", content: "Not yet", publish: false }) { id } }',
      {},
      writer.token,
    );
    const query = `{ post(id: "${createPost.id}") { id author { name } } }`;
    expect((await t.data(query)).post).toBeNull();
    expect((await t.data(query, {}, (await t.signUp()).token)).post).toBeNull();
    expect((await t.data(query, {}, writer.token)).post).toEqual({
      id: createPost.id,
      author: { name: writer.user.name },
    });
  });

  it('should bind the hot nested fields as plain resolvers, without a per-call Nest context', () => {
    // Nest binds a field resolver with no parameter decorators as it is; any decorator would
    // wrap every call of it (pipes, parameter factories) for each parent in a list.
    const schema = t.app.get(GraphQLSchemaHost).schema;
    const resolverOf = (type: string, field: string) =>
      (schema.getType(type) as GraphQLObjectType).getFields()[field].resolve?.name;
    for (const [type, field] of [
      ['Post', 'author'],
      ['Post', 'likesCount'],
      ['Post', 'isLikedByMe'],
      ['Post', 'commentsCount'],
      ['Comment', 'author'],
      ['Comment', 'post'],
      ['User', 'postsCount'],
      ['User', 'followersCount'],
      ['User', 'email'],
    ]) {
      expect(`${type}.${field}: ${resolverOf(type, field)}`).toMatch(
        new RegExp(`^${type}\\.${field}: (bound )+${field}$`),
      );
    }
  });

  it('should keep the count flat for a signed-in viewer too', async () => {
    const viewer = await t.signUp();
    const { count } = await statementsFor(NESTED, viewer.token);
    expect(count).toBeLessThanOrEqual(5);
  });
});
