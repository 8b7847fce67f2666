import { Comment, Like } from '../src/blog';
import {
  CREATE_POST,
  FEED_QUERY,
  FOLLOW_USER,
  POST_DETAIL_QUERY,
  PROFILE_QUERY,
} from './helpers/documents';
import { insertUsersWithPosts } from './helpers/fixtures';
import { TestApp, TestUser } from './helpers/test-app';
import { newId } from '../src/blog/common/uuid';

/** The client-side queries of the specification, run as a client would. */
describe("The specification's client queries (e2e)", () => {
  let t: TestApp;
  let viewer: TestUser;

  beforeAll(async () => {
    t = await TestApp.start();
    viewer = await t.signUp({ name: 'Viewer' });
  });
  afterAll(() => t.close());

  it('should create a post with createPost(input:) and find it first when the list is read again', async () => {
    const before = (await t.data(`{ posts { id title content } }`)).posts;
    const { createPost } = await t.data(
      `mutation CreatePost($input: CreatePostInput!) { createPost(input: $input) { id title content } }`,
      { input: { title: 'Client post', content: 'Prepended' } },
      viewer.token,
    );
    expect(createPost).toEqual({
      id: expect.any(String),
      title: 'Client post',
      content: 'Prepended',
    });
    const after = (await t.data(`{ posts { id title content } }`)).posts;
    expect(after).toEqual([createPost, ...before]);
  });

  it('should answer the feed query with every field the client asks for', async () => {
    const { feed } = await t.data(FEED_QUERY, {}, viewer.token);
    expect(feed[0]).toEqual({
      id: expect.any(String),
      content: 'Prepended',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      author: { name: 'Viewer', handle: viewer.user.handle, avatar: null },
      likesCount: 0,
      isLikedByMe: false,
    });
  });

  it('should answer the post-detail query with comments', async () => {
    const { feed } = await t.data(FEED_QUERY, {}, viewer.token);
    await t.data(
      `mutation ($p: ID!) { addComment(postId: $p, text: "Nice") { id } }`,
      { p: feed[0].id },
      viewer.token,
    );
    const { post } = await t.data(POST_DETAIL_QUERY, { id: feed[0].id }, viewer.token);
    expect(post).toEqual({
      title: 'Client post',
      content: 'Prepended',
      author: { name: 'Viewer', avatar: null },
      comments: [{ text: 'Nice', createdAt: expect.any(String) }],
    });
  });

  it('should answer the profile query with publishedAt', async () => {
    const { user } = await t.data(PROFILE_QUERY, { id: viewer.user.id });
    expect(user.posts).toEqual([
      { id: expect.any(String), title: 'Client post', publishedAt: expect.any(String) },
    ]);
  });

  describe('postsConnection', () => {
    it('should page with opaque cursors, pageInfo and totalCount', async () => {
      const author = await t.signUp();
      for (let i = 1; i <= 5; i++)
        await t.data(CREATE_POST, { input: { title: `C${i}`, content: 'x' } }, author.token);
      const query = `query ($after: String, $a: ID) { postsConnection(first: 2, after: $after, authorId: $a) {
        totalCount edges { cursor node { title } } pageInfo { hasNextPage endCursor } } }`;
      const titles: string[] = [];
      let after: string | null = null;
      let pages = 0;
      for (;;) {
        const { postsConnection: c }: { postsConnection: any } = await t.data(query, {
          after,
          a: author.user.id,
        });
        pages += 1;
        expect(c.totalCount).toBe(5);
        titles.push(...c.edges.map((e: { node: { title: string } }) => e.node.title));
        expect(c.pageInfo.endCursor).toBe(c.edges.at(-1)?.cursor ?? null);
        if (!c.pageInfo.hasNextPage) break;
        expect(c.pageInfo.endCursor).not.toContain('-');
        after = c.pageInfo.endCursor;
      }
      expect(pages).toBe(3);
      expect(titles).toEqual(['C5', 'C4', 'C3', 'C2', 'C1']);
    });

    it('should answer BAD_USER_INPUT for a cursor it did not make', async () => {
      const response = await t.gql(`{ postsConnection(after: "not-a-cursor") { totalCount } }`);
      expect(response.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'after' });
    });
  });

  describe('statements per query', () => {
    let detailPostId: string;

    async function grow(totalPosts: number) {
      const have = (await t.data(`{ postsConnection { totalCount } }`)).postsConnection.totalCount;
      const authors = 10;
      const { users, posts } = await insertUsersWithPosts(
        t.dataSource,
        authors,
        Math.ceil((totalPosts - have) / authors),
      );
      for (const user of users) await t.data(FOLLOW_USER, { userId: user.id }, viewer.token);
      const likes = posts.map((post) => ({
        postId: post.id,
        userId: viewer.user.id,
        createdAt: new Date(),
      }));
      await t.dataSource
        .getRepository(Like)
        .insert(likes.filter((_, i) => i % 2 === 0).slice(0, 200));
      detailPostId = posts[0].id;
      const comments = Array.from({ length: 25 }, (_, i) => ({
        id: newId(),
        postId: detailPostId,
        authorId: users[i % users.length].id,
        text: `Comment ${i}`,
        createdAt: new Date(),
      }));
      await t.dataSource.getRepository(Comment).insert(comments);
    }

    async function statementsFor(query: string, variables: Record<string, unknown> = {}) {
      return t.statements.count(() => t.data(query, variables, viewer.token));
    }

    it('should run the feed and post-detail queries in at most 6 statements, the same at 20 and 100 posts', async () => {
      await grow(20);
      const feedAt20 = await statementsFor(FEED_QUERY);
      const detailAt20 = await statementsFor(POST_DETAIL_QUERY, { id: detailPostId });
      const { feed } = await t.data(FEED_QUERY, {}, viewer.token);
      expect(feed).toHaveLength(20);
      expect(feed.some((p: { isLikedByMe: boolean }) => p.isLikedByMe)).toBe(true);

      await grow(100);
      const feedAt100 = await statementsFor(FEED_QUERY);
      const detailAt100 = await statementsFor(POST_DETAIL_QUERY, { id: detailPostId });
      const { post } = await t.data(POST_DETAIL_QUERY, { id: detailPostId }, viewer.token);
      expect(post.comments).toHaveLength(20);

      expect(feedAt100).toBe(feedAt20);
      expect(detailAt100).toBe(detailAt20);
      expect(feedAt100).toBeLessThanOrEqual(6);
      expect(detailAt100).toBeLessThanOrEqual(6);
    });

    it('should batch every per-parent field of users and posts', async () => {
      const everyField = `{ users(first: 100) { postsCount followersCount followingCount isFollowedByMe
        posts(first: 5) { author { name } commentsCount likesCount isLikedByMe comments(first: 3) { author { name } post { id } } } } }`;
      const count = await statementsFor(everyField);
      await insertUsersWithPosts(t.dataSource, 30, 3);
      expect(await statementsFor(everyField)).toBe(count);
    });
  });
});
