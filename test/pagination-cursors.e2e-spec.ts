import { Comment, Post } from '../src/blog';
import { CREATE_POST, DELETE_POST, FOLLOW_USER } from './helpers/documents';
import { insertUsersWithPosts } from './helpers/fixtures';
import { isBackgroundStatement } from './helpers/statement-counter';
import { TestApp, TestUser } from './helpers/test-app';

const POSTS = `query ($first: Int, $after: ID, $authorId: ID) {
  posts(first: $first, after: $after, authorId: $authorId) { id } }`;
const CONNECTION = `query ($first: Int, $after: String, $authorId: ID) {
  postsConnection(first: $first, after: $after, authorId: $authorId) {
    edges { node { id } } pageInfo { hasNextPage endCursor } } }`;
const FEED = `query ($first: Int, $after: ID) { feed(first: $first, after: $after) { id } }`;
const USER_POSTS = `query ($id: ID!, $first: Int, $after: ID) {
  user(id: $id) { posts(first: $first, after: $after) { id } } }`;
const DRAFTS = `query ($first: Int, $after: ID) { myDrafts(first: $first, after: $after) { id } }`;
const COMMENTS = `query ($id: ID!, $first: Int, $after: ID) {
  post(id: $id) { comments(first: $first, after: $after) { id } } }`;

/** A cursor in the form the service handed out before cursors carried publishedAt. */
const oldCursor = (id: string) => Buffer.from(`post:${id}`).toString('base64url');
const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
/** Fixed ids whose last character is a letter, so that letter case changes how they sort. */
const fixedId = (n: number, letter: string) =>
  `01900000-0000-7000-8000-${String(n).padStart(11, '0')}${letter}`;
const BAD_AFTER = { code: 'BAD_USER_INPUT', field: 'after' };

describe('Cursors of post and comment lists (e2e)', () => {
  let t: TestApp;
  let reader: TestUser;

  /** A new author with `count` published posts; their ids newest first. */
  async function authorWithPosts(count: number): Promise<{ author: TestUser; posts: string[] }> {
    const author = await t.signUp();
    const posts: string[] = [];
    for (let i = 1; i <= count; i++) {
      const { createPost } = await t.data(
        CREATE_POST,
        { input: { title: `P${i}`, content: 'x' } },
        author.token,
      );
      posts.unshift(createPost.id);
    }
    return { author, posts };
  }

  beforeAll(async () => {
    t = await TestApp.start();
    reader = await t.signUp();
  });
  afterAll(() => t.close());

  describe('when the post named by after is deleted', () => {
    it('should continue a postsConnection from an endCursor whose post was deleted', async () => {
      const { author, posts } = await authorWithPosts(5);
      const vars = { first: 2, authorId: author.user.id };
      const first = (await t.data(CONNECTION, vars)).postsConnection;
      expect(first.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(
        posts.slice(0, 2),
      );
      await t.data(DELETE_POST, { id: posts[1] }, author.token);

      const next = (await t.data(CONNECTION, { ...vars, after: first.pageInfo.endCursor }))
        .postsConnection;
      expect(next.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(posts.slice(2, 4));
      expect(next.pageInfo.hasNextPage).toBe(true);
    });

    it('should answer BAD_USER_INPUT on after, not an empty page, for posts(after: id)', async () => {
      const { author, posts } = await authorWithPosts(4);
      await t.data(DELETE_POST, { id: posts[1] }, author.token);
      for (const authorId of [author.user.id, null]) {
        const response = await t.gql(POSTS, { first: 2, after: posts[1], authorId });
        expect(response.errors?.[0].extensions).toEqual(BAD_AFTER);
      }
    });

    it('should answer BAD_USER_INPUT on after for the feed', async () => {
      const { author, posts } = await authorWithPosts(3);
      await t.data(DELETE_POST, { id: posts[0] }, author.token);
      const follower = await t.signUp();
      await t.data(FOLLOW_USER, { userId: author.user.id }, follower.token);
      for (const token of [follower.token, undefined]) {
        const response = await t.gql(FEED, { first: 2, after: posts[0] }, token);
        expect(response.errors?.[0].extensions).toEqual(BAD_AFTER);
      }
    });

    it("should answer BAD_USER_INPUT on after for a user's posts", async () => {
      const { author, posts } = await authorWithPosts(3);
      await t.data(DELETE_POST, { id: posts[0] }, author.token);
      const response = await t.gql(USER_POSTS, { id: author.user.id, first: 2, after: posts[0] });
      expect(response.errors?.[0].extensions).toEqual(BAD_AFTER);
      expect(response.errors?.[0].path).toEqual(['user', 'posts']);
    });

    it('should answer BAD_USER_INPUT on after for a cursor of the old form', async () => {
      const { author, posts } = await authorWithPosts(3);
      await t.data(DELETE_POST, { id: posts[0] }, author.token);
      const response = await t.gql(CONNECTION, { first: 2, after: oldCursor(posts[0]) });
      expect(response.errors?.[0].extensions).toEqual(BAD_AFTER);
    });

    it('should answer BAD_USER_INPUT on after when it names a draft', async () => {
      const author = await t.signUp();
      const { createPost } = await t.data(
        CREATE_POST,
        { input: { title: 'Draft', content: 'x', publish: false } },
        author.token,
      );
      const response = await t.gql(POSTS, { first: 2, after: createPost.id });
      expect(response.errors?.[0].extensions).toEqual(BAD_AFTER);
    });

    it('should continue myDrafts, ordered by id, after a deleted draft', async () => {
      const author = await t.signUp();
      const drafts: string[] = [];
      for (let i = 1; i <= 4; i++) {
        const input = { title: `D${i}`, content: 'x', publish: false };
        drafts.unshift((await t.data(CREATE_POST, { input }, author.token)).createPost.id);
      }
      await t.data(DELETE_POST, { id: drafts[1] }, author.token);
      const { myDrafts } = await t.data(DRAFTS, { first: 2, after: drafts[1] }, author.token);
      expect(ids(myDrafts)).toEqual(drafts.slice(2, 4));
    });

    it('should continue Post.comments, ordered by id, after a deleted comment', async () => {
      const { posts } = await authorWithPosts(1);
      const comments = [1, 2, 3, 4].map((n) => fixedId(n, 'a'));
      await insertComments(posts[0], comments);
      await t.dataSource.getRepository(Comment).delete({ id: comments[1] });
      const { post } = await t.data(COMMENTS, { id: posts[0], first: 2, after: comments[1] });
      expect(ids(post.comments)).toEqual(comments.slice(2, 4));
    });
  });

  it('should keep cursors of the old form working while their post exists', async () => {
    const { author, posts } = await authorWithPosts(4);
    const vars = { first: 2, authorId: author.user.id, after: oldCursor(posts[1]) };
    const { postsConnection } = await t.data(CONNECTION, vars);
    expect(postsConnection.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(
      posts.slice(2, 4),
    );
  });

  it('should page through posts that share one publishedAt, by id', async () => {
    const author = await t.signUp();
    const at = new Date('2021-06-01T12:00:00.123Z');
    const shared = ['b', 'c', 'd', 'e', 'f'].map((letter, i) => fixedId(100 + i, letter));
    await t.dataSource.getRepository(Post).insert(
      shared.map((id) => ({
        id,
        title: id,
        content: 'x',
        authorId: author.user.id,
        createdAt: at,
        updatedAt: at,
        publishedAt: at,
      })),
    );
    const newestFirst = [...shared].reverse();
    const vars = { first: 2, authorId: author.user.id };
    const seen: string[] = [];
    for (let after: string | null = null; ;) {
      const c: any = (await t.data(CONNECTION, { ...vars, after })).postsConnection;
      seen.push(...c.edges.map((e: { node: { id: string } }) => e.node.id));
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(seen).toEqual(newestFirst);
    const page = await t.data(POSTS, { ...vars, after: newestFirst[1] });
    expect(ids(page.posts)).toEqual(newestFirst.slice(2, 4));
  });

  describe('after in upper case', () => {
    it('should find the post of posts, feed and User.posts', async () => {
      const { author, posts } = await authorWithPosts(4);
      const after = posts[1].toUpperCase();
      const next = posts.slice(2, 4);
      const { posts: page } = await t.data(POSTS, { first: 2, after, authorId: author.user.id });
      expect(ids(page)).toEqual(next);
      const { user } = await t.data(USER_POSTS, { id: author.user.id, first: 2, after });
      expect(ids(user.posts)).toEqual(next);
      const follower = await t.signUp();
      await t.data(FOLLOW_USER, { userId: author.user.id }, follower.token);
      const { feed } = await t.data(FEED, { first: 2, after }, follower.token);
      expect(ids(feed)).toEqual(next);
    });

    it('should sort it as its lower-case id in myDrafts', async () => {
      const author = await t.signUp();
      const drafts = ['a', 'b', 'c', 'd'].map((letter) => fixedId(200, letter));
      const at = new Date();
      await t.dataSource.getRepository(Post).insert(
        drafts.map((id) => ({
          id,
          title: id,
          content: 'x',
          authorId: author.user.id,
          createdAt: at,
          updatedAt: at,
          publishedAt: null,
        })),
      );
      const after = drafts[2].toUpperCase();
      const { myDrafts } = await t.data(DRAFTS, { first: 2, after }, author.token);
      expect(ids(myDrafts)).toEqual([drafts[1], drafts[0]]);
    });

    it('should sort it as its lower-case id in Post.comments', async () => {
      const { posts } = await authorWithPosts(1);
      const comments = ['a', 'b', 'c', 'd'].map((letter) => fixedId(300, letter));
      await insertComments(posts[0], comments);
      const after = comments[1].toUpperCase();
      const { post } = await t.data(COMMENTS, { id: posts[0], first: 2, after });
      expect(ids(post.comments)).toEqual(comments.slice(2, 4));
    });
  });

  describe('authorId', () => {
    it.each([[''], ['nope'], ["1' OR 1=1"]])(
      'should refuse authorId %p as BAD_USER_INPUT on posts and postsConnection',
      async (authorId) => {
        for (const query of [POSTS, CONNECTION]) {
          const response = await t.gql(query, { first: 2, authorId });
          expect(response.data).toBeNull();
          expect(response.errors?.[0].extensions).toEqual({
            code: 'BAD_USER_INPUT',
            field: 'authorId',
          });
        }
      },
    );

    it('should find the posts of an authorId in upper case', async () => {
      const { author, posts } = await authorWithPosts(2);
      const authorId = author.user.id.toUpperCase();
      expect(ids((await t.data(POSTS, { authorId })).posts)).toEqual(posts);
    });
  });

  describe('page statements with a cursor', () => {
    let authors: string[];
    let middle: Post;

    beforeAll(async () => {
      const { users, posts } = await insertUsersWithPosts(t.dataSource, 20, 60);
      authors = users.map((user) => user.id);
      middle = posts[posts.length / 2];
      for (const id of authors.slice(0, 3)) {
        await t.data(FOLLOW_USER, { userId: id }, reader.token);
      }
      if (t.dataSource.options.type === 'postgres') await t.dataSource.query('ANALYZE');
    });

    /**
     * The statements (text and parameters) that `action` sent; not the scheduler's look for due
     * posts, which runs every second outside any request.
     */
    async function sent(action: () => Promise<unknown>) {
      const logQuery = jest.spyOn(t.statements, 'logQuery');
      try {
        await action();
        const calls = logQuery.mock.calls as unknown as [string, unknown[]][];
        return calls
          .filter(([sql]) => !isBackgroundStatement(sql))
          .map(([sql, parameters]) => ({ sql, parameters }));
      } finally {
        logQuery.mockRestore();
      }
    }

    const isPostsPage = ({ sql }: { sql: string }) => /\bposts\b[\s\S]*\bLIMIT\b/.test(sql);

    /** The plan of the one page of posts (a statement on posts with a LIMIT) that `action` sent. */
    async function planOfPage(action: () => Promise<unknown>): Promise<string> {
      const pages = (await sent(action)).filter(isPostsPage);
      expect(pages).toHaveLength(1);
      const [{ sql, parameters }] = pages;
      if (t.dataSource.options.type === 'postgres') {
        const rows = await t.dataSource.query(`EXPLAIN ${sql}`, parameters);
        return rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
      }
      const rows = await t.dataSource.query(`EXPLAIN QUERY PLAN ${sql}`, parameters);
      return rows.map((row: { detail: string }) => row.detail).join('\n');
    }

    /**
     * Asserts that posts are read through `index`, bounded by the row value
     * (published_at, id) < (…), and that no scan of posts tests those columns row by row.
     */
    function expectRowValueIndexBound(plan: string, index: string) {
      if (t.dataSource.options.type === 'postgres') {
        const scan = String.raw`Index (Only )?Scan Backward using "?${index}"? on posts \w+[^\n]*\n`;
        const bound = String.raw`\s+Index Cond: [^\n]*ROW\(published_at, (\(id\)::text|id)\) < ROW\(`;
        expect(plan).toMatch(new RegExp(scan + bound));
        expect(plan).not.toMatch(/Seq Scan on posts[^\n]*\n\s+Filter:/);
        expect(plan).not.toMatch(/Filter: [^\n]*published_at/);
      } else {
        expect(plan).not.toMatch(/SCAN (p|x|posts)\b/);
        const bound = String.raw`\(published_at,id\)<\(\?,\?\)`;
        expect(plan).toMatch(
          new RegExp(`SEARCH \\w+ USING (COVERING )?INDEX ${index} \\(.*${bound}`),
        );
      }
    }

    it('should bound the posts list by the index and the row value', async () => {
      const plan = await planOfPage(() => t.data(POSTS, { first: 5, after: middle.id }));
      expectRowValueIndexBound(plan, 'IDX_posts_published');
    });

    it("should bound one author's posts by the index and the row value", async () => {
      const vars = { first: 5, after: middle.id, authorId: middle.authorId };
      const plan = await planOfPage(() => t.data(POSTS, vars));
      expectRowValueIndexBound(plan, 'IDX_posts_author_published');
    });

    it('should bound the pages of every author by the index and the row value', async () => {
      const query = `query ($after: ID) { users(first: 20) { posts(first: 3, after: $after) { id } } }`;
      const plan = await planOfPage(() => t.data(query, { after: middle.id }));
      expectRowValueIndexBound(plan, 'IDX_posts_author_published');
    });

    it('should bound the feed by the index and the row value', async () => {
      const plan = await planOfPage(() =>
        t.data(FEED, { first: 5, after: middle.id }, reader.token),
      );
      expectRowValueIndexBound(plan, 'IDX_posts_author_published');
    });

    it('should bound a postsConnection page by its cursor alone, without a lookup', async () => {
      const { postsConnection } = await t.data(CONNECTION, { first: 3 });
      const after = postsConnection.pageInfo.endCursor;
      const statements = await sent(() => t.data(CONNECTION, { first: 3, after }));
      expect(statements).toHaveLength(1);
      const plan = await planOfPage(() => t.data(CONNECTION, { first: 3, after }));
      expectRowValueIndexBound(plan, 'IDX_posts_published');
    });

    it("should send as many statements for users' pages after an id at 5 and at 20 users", async () => {
      const query = `query ($n: Int, $after: ID) { users(first: $n) { posts(first: 3, after: $after) { id } } }`;
      const at5 = await sent(() => t.data(query, { n: 5, after: middle.id }));
      const at20 = await sent(() => t.data(query, { n: 20, after: middle.id }));
      expect(at20.length).toBe(at5.length);
      expect(at20.filter(isPostsPage)).toHaveLength(1);
    });
  });

  async function insertComments(postId: string, commentIds: string[]) {
    await t.dataSource.getRepository(Comment).insert(
      commentIds.map((id) => ({
        id,
        postId,
        authorId: reader.user.id,
        text: id,
        createdAt: new Date(),
      })),
    );
  }
});
