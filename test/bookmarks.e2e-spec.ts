import { Post } from '../src/blog';
import { CREATE_POST, DELETE_POST, LIKE_POST, MISSING_ID } from './helpers/documents';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';
import { collect, wsClient } from './helpers/ws-client';
import { Bookmark } from '../src/blog/bookmarks/bookmark.entity';
import { BlogEvent } from '../src/blog/events/blog-events';

const BOOKMARK = `mutation ($postId: ID!) { bookmarkPost(postId: $postId) { id isBookmarkedByMe } }`;
const UNBOOKMARK = `mutation ($postId: ID!) { unbookmarkPost(postId: $postId) { id isBookmarkedByMe } }`;
const MY_BOOKMARKS = `query ($first: Int, $after: String) {
  myBookmarks(first: $first, after: $after) {
    totalCount
    edges { cursor node { id title isBookmarkedByMe } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const IS_BOOKMARKED = `query ($id: ID!) { post(id: $id) { isBookmarkedByMe } }`;
const DELETE_ACCOUNT = `mutation ($password: String!) { deleteAccount(password: $password) }`;

interface Page {
  totalCount: number;
  edges: { cursor: string; node: { id: string; title: string; isBookmarkedByMe: boolean } }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const codeOf = (response: GraphQLResponse) => response.errors?.[0]?.extensions?.code;

describe('Bookmarks (e2e)', () => {
  let t: TestApp;
  let author: TestUser;
  let reader: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await TestApp.start();
    author = await t.signUp({ name: 'Author' });
    reader = await t.signUp({ name: 'Reader' });
    stranger = await t.signUp({ name: 'Stranger' });
  });
  afterAll(() => t.close());

  const createPost = async (title: string, by = author, publish = true): Promise<string> =>
    (await t.data(CREATE_POST, { input: { title, content: `About ${title}`, publish } }, by.token))
      .createPost.id;
  const bookmark = (postId: string, by = reader) => t.gql(BOOKMARK, { postId }, by.token);
  const unbookmark = (postId: string, by = reader) => t.gql(UNBOOKMARK, { postId }, by.token);
  const myBookmarks = async (user: TestUser, first?: number, after?: string): Promise<Page> =>
    (await t.data(MY_BOOKMARKS, { first, after }, user.token)).myBookmarks;
  const bookmarkRows = (where: Partial<Bookmark> = {}) =>
    t.dataSource.getRepository(Bookmark).countBy(where);
  /** A fresh user with their own bookmarks of `titles`, bookmarked in that order. */
  const userWithBookmarks = async (...titles: string[]) => {
    const user = await t.signUp();
    const ids: string[] = [];
    for (const title of titles) {
      const id = await createPost(title);
      expect(codeOf(await bookmark(id, user))).toBeUndefined();
      ids.push(id);
    }
    return { user, ids };
  };

  describe('bookmarkPost and unbookmarkPost', () => {
    it('should bookmark a post once, however often it is bookmarked', async () => {
      const postId = await createPost('Twice');
      expect((await bookmark(postId)).data?.bookmarkPost).toEqual({
        id: postId,
        isBookmarkedByMe: true,
      });
      expect((await bookmark(postId)).data?.bookmarkPost).toEqual({
        id: postId,
        isBookmarkedByMe: true,
      });
      expect(await bookmarkRows({ postId })).toBe(1);
    });

    it('should keep one row when one user bookmarks concurrently', async () => {
      const postId = await createPost('Concurrent');
      const responses = await Promise.all(Array.from({ length: 8 }, () => bookmark(postId)));
      expect(responses.map(codeOf)).toEqual(Array(8).fill(undefined));
      expect(await bookmarkRows({ postId, userId: reader.user.id })).toBe(1);
    });

    it('should remove a bookmark, and answer the post when there was none', async () => {
      const postId = await createPost('Removed');
      await bookmark(postId);
      for (let i = 0; i < 2; i++) {
        const response = await unbookmark(postId);
        expect(response.data?.unbookmarkPost).toEqual({ id: postId, isBookmarkedByMe: false });
      }
      expect(await bookmarkRows({ postId })).toBe(0);
    });

    it("should keep one user's bookmark when another removes theirs", async () => {
      const postId = await createPost('Shared');
      await bookmark(postId, reader);
      await bookmark(postId, stranger);
      await unbookmark(postId, stranger);
      expect(await bookmarkRows({ postId })).toBe(1);
      expect((await t.data(IS_BOOKMARKED, { id: postId }, reader.token)).post).toEqual({
        isBookmarkedByMe: true,
      });
    });

    it('should see the change of each mutation of one operation in its own selection', async () => {
      const postId = await createPost('Both at once');
      const { a, b } = await t.data(
        `mutation ($postId: ID!) {
          a: bookmarkPost(postId: $postId) { isBookmarkedByMe }
          b: unbookmarkPost(postId: $postId) { isBookmarkedByMe }
        }`,
        { postId },
        reader.token,
      );
      expect([a.isBookmarkedByMe, b.isBookmarkedByMe]).toEqual([true, false]);
    });

    it('should answer UNAUTHENTICATED when anonymous, and write nothing', async () => {
      const postId = await createPost('Anonymous');
      expect(codeOf(await t.gql(BOOKMARK, { postId }))).toBe('UNAUTHENTICATED');
      expect(codeOf(await t.gql(UNBOOKMARK, { postId }))).toBe('UNAUTHENTICATED');
      expect(codeOf(await t.gql(MY_BOOKMARKS))).toBe('UNAUTHENTICATED');
      expect(await bookmarkRows({ postId })).toBe(0);
    });

    it("should answer someone else's draft exactly as a missing post: NOT_FOUND", async () => {
      const draftId = await createPost('Secret draft', author, false);
      const draft = await bookmark(draftId);
      const missing = await bookmark(MISSING_ID);
      expect(draft.errors?.[0].extensions).toEqual({ code: 'NOT_FOUND' });
      expect(draft.errors?.[0].message).toBe(missing.errors?.[0].message);
      expect(missing.errors?.[0].extensions).toEqual({ code: 'NOT_FOUND' });
      expect(draft.data).toBeNull();
      expect(codeOf(await unbookmark(draftId))).toBe('NOT_FOUND');
      expect(codeOf(await unbookmark(MISSING_ID))).toBe('NOT_FOUND');
      expect(await bookmarkRows({ postId: draftId })).toBe(0);
    });

    it('should refuse to bookmark your own draft, as likePost does, until it is published', async () => {
      const draftId = await createPost('My draft', author, false);
      const refused = await bookmark(draftId, author);
      expect(refused.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'postId' });
      expect(await bookmarkRows({ postId: draftId })).toBe(0);
      // Removing a bookmark of your own draft, which has none, answers the draft.
      expect((await unbookmark(draftId, author)).data?.unbookmarkPost).toEqual({
        id: draftId,
        isBookmarkedByMe: false,
      });
    });

    it('should answer NOT_FOUND for an id that is no id, never a database error', async () => {
      for (const postId of ['not-an-id', "1' OR '1'='1", 'x'.repeat(1000)]) {
        expect((await bookmark(postId)).errors?.[0].extensions).toEqual({ code: 'NOT_FOUND' });
      }
    });
  });

  describe('Post.isBookmarkedByMe', () => {
    it('should answer for the viewer who asks: each their own, and false when anonymous', async () => {
      const [first, second] = [await createPost('For reader'), await createPost('For stranger')];
      await bookmark(first, reader);
      await bookmark(second, stranger);
      const query = `query ($first: ID!, $second: ID!) { a: post(id: $first) { isBookmarkedByMe }
        b: post(id: $second) { isBookmarkedByMe } }`;
      const as = async (token?: string) => {
        const { a, b } = await t.data(query, { first, second }, token);
        return [a.isBookmarkedByMe, b.isBookmarkedByMe];
      };
      expect(await as(reader.token)).toEqual([true, false]);
      expect(await as(stranger.token)).toEqual([false, true]);
      expect(await as(author.token)).toEqual([false, false]);
      expect(await as()).toEqual([false, false]);
    });
  });

  describe('myBookmarks', () => {
    it('should list bookmarks newest first, in pages that follow their endCursor', async () => {
      const { user, ids } = await userWithBookmarks('B1', 'B2', 'B3', 'B4', 'B5');
      const first = await myBookmarks(user, 2);
      expect(first.edges.map((edge) => edge.node.title)).toEqual(['B5', 'B4']);
      expect(first.pageInfo).toEqual({ hasNextPage: true, endCursor: first.edges[1].cursor });
      expect(first.totalCount).toBe(5);
      expect(first.edges.every((edge) => edge.node.isBookmarkedByMe)).toBe(true);

      const second = await myBookmarks(user, 2, first.pageInfo.endCursor!);
      expect(second.edges.map((edge) => edge.node.title)).toEqual(['B3', 'B2']);
      const last = await myBookmarks(user, 2, second.pageInfo.endCursor!);
      expect(last.edges.map((edge) => edge.node.title)).toEqual(['B1']);
      expect(last.pageInfo.hasNextPage).toBe(false);
      expect(last.totalCount).toBe(5);
      expect(last.edges[0].node.id).toBe(ids[0]);
    });

    it('should put a post bookmarked again after removal at the top', async () => {
      const { user, ids } = await userWithBookmarks('R1', 'R2', 'R3');
      await unbookmark(ids[0], user);
      await bookmark(ids[0], user);
      const page = await myBookmarks(user);
      expect(page.edges.map((edge) => edge.node.title)).toEqual(['R1', 'R3', 'R2']);
    });

    it('should go on from a cursor whose bookmark has been removed since', async () => {
      const { user, ids } = await userWithBookmarks('C1', 'C2', 'C3', 'C4');
      const first = await myBookmarks(user, 2);
      await unbookmark(ids[2], user);
      const next = await myBookmarks(user, 2, first.pageInfo.endCursor!);
      expect(next.edges.map((edge) => edge.node.title)).toEqual(['C2', 'C1']);
    });

    it('should show each user only their own bookmarks', async () => {
      const { user } = await userWithBookmarks('Mine');
      const other = await userWithBookmarks('Theirs');
      expect((await myBookmarks(user)).edges.map((edge) => edge.node.title)).toEqual(['Mine']);
      expect((await myBookmarks(other.user)).totalCount).toBe(1);
      expect(await myBookmarks(await t.signUp())).toEqual({
        totalCount: 0,
        edges: [],
        pageInfo: { hasNextPage: false, endCursor: null },
      });
    });

    it('should leave out a post while it is a draft again, from the page and its count', async () => {
      const { user, ids } = await userWithBookmarks('U1', 'U2', 'U3');
      const posts = t.dataSource.getRepository(Post);
      const publishedAt = (await posts.findOneByOrFail({ id: ids[1] })).publishedAt;
      await posts.update({ id: ids[1] }, { publishedAt: null });

      const page = await myBookmarks(user, 1);
      expect(page.edges.map((edge) => edge.node.title)).toEqual(['U3']);
      expect(page.totalCount).toBe(2);
      const next = await myBookmarks(user, 1, page.pageInfo.endCursor!);
      expect(next.edges.map((edge) => edge.node.title)).toEqual(['U1']);
      expect(next.pageInfo.hasNextPage).toBe(false);

      await posts.update({ id: ids[1] }, { publishedAt });
      const back = await myBookmarks(user);
      expect(back.edges.map((edge) => edge.node.title)).toEqual(['U3', 'U2', 'U1']);
      expect(back.totalCount).toBe(3);
    });

    it('should leave out a deleted post, whose bookmarks go with it', async () => {
      const { user, ids } = await userWithBookmarks('D1', 'D2');
      await t.data(DELETE_POST, { id: ids[1] }, author.token);
      const page = await myBookmarks(user);
      expect(page.edges.map((edge) => edge.node.title)).toEqual(['D1']);
      expect(page.totalCount).toBe(1);
      expect(await bookmarkRows({ postId: ids[1] })).toBe(0);
    });

    it.each([
      ['first over 100', { first: 101 }, 'first'],
      ['a negative first', { first: -1 }, 'first'],
      ['a cursor that is not one', { after: 'not-a-cursor' }, 'after'],
      [
        'a cursor of another list',
        { after: Buffer.from(`post:1:${MISSING_ID}`).toString('base64url') },
        'after',
      ],
    ])('should answer BAD_USER_INPUT for %s', async (_, variables, field) => {
      const response = await t.gql(MY_BOOKMARKS, variables, reader.token);
      expect(response.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field });
    });

    it('should answer an empty page at first: 0, saying whether bookmarks exist', async () => {
      const { user } = await userWithBookmarks('Z1');
      const page = await myBookmarks(user, 0);
      expect(page).toMatchObject({ edges: [], pageInfo: { hasNextPage: true }, totalCount: 1 });
    });

    it('should price the list by its page size in the cost limit', async () => {
      const nested = (first: number) => `{ myBookmarks(first: ${first}) { edges { node {
        comments(first: 100) { post { comments(first: 100) { id } } } } } } }`;
      expect(codeOf(await t.gql(nested(1), {}, reader.token))).toBeUndefined();
      const refused = await t.gql(nested(100), {}, reader.token);
      expect(codeOf(refused)).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(refused.errors?.[0].extensions).toMatchObject({ limit: 'complexity' });
    });
  });

  describe('deleted accounts', () => {
    it("should remove a deleted user's bookmarks, and keep everyone else's", async () => {
      const { user, ids } = await userWithBookmarks('A1', 'A2');
      await bookmark(ids[0], stranger);
      await t.data(DELETE_ACCOUNT, { password: user.password }, user.token);
      expect(await bookmarkRows({ userId: user.user.id })).toBe(0);
      expect(await bookmarkRows({ postId: ids[0], userId: stranger.user.id })).toBe(1);
    });

    it("should remove the bookmarks of a deleted author's posts", async () => {
      const writer = await t.signUp();
      const postId = await createPost('By a leaving author', writer);
      await bookmark(postId, reader);
      await t.data(DELETE_ACCOUNT, { password: writer.password }, writer.token);
      expect(await bookmarkRows({ postId })).toBe(0);
      const titles = (await myBookmarks(reader, 100)).edges.map((edge) => edge.node.title);
      expect(titles).not.toContain('By a leaving author');
    });
  });

  describe('statements per request', () => {
    const statementsFor = (query: string, token: string) => t.counted(query, {}, token);

    it('should read isBookmarkedByMe of a page of posts in one statement, whatever its size', async () => {
      const viewer = await t.signUp();
      for (let i = 0; i < 30; i++) await createPost(`Many ${i}`);
      const { posts } = await t.data('{ posts(first: 30) { id } }');
      for (const { id } of posts.slice(0, 10)) await bookmark(id, viewer);
      const withFlag = (first: number) => `{ posts(first: ${first}) { id isBookmarkedByMe } }`;
      const without = await statementsFor('{ posts(first: 30) { id } }', viewer.token);
      const atFive = await statementsFor(withFlag(5), viewer.token);
      const atThirty = await statementsFor(withFlag(30), viewer.token);
      expect(atThirty.count).toBe(atFive.count);
      expect(atThirty.count).toBe(without.count + 1);
      const flags = atThirty.data.posts.map(
        (post: { isBookmarkedByMe: boolean }) => post.isBookmarkedByMe,
      );
      expect(flags).toEqual([...Array(10).fill(true), ...Array(20).fill(false)]);
    });

    it('should send the same statements for a page of 2 bookmarks and of 20, nested fields included', async () => {
      const titles = Array.from({ length: 20 }, (_, i) => `Flat ${i}`);
      const { user } = await userWithBookmarks(...titles);
      const query = (first: number) => `{ myBookmarks(first: ${first}) { totalCount
        edges { node { id isBookmarkedByMe isLikedByMe likesCount author { name } } } } }`;
      const small = await statementsFor(query(2), user.token);
      const large = await statementsFor(query(20), user.token);
      expect(large.data.myBookmarks.edges).toHaveLength(20);
      expect(large.count).toBe(small.count);
    });

    it('should read no statement for isBookmarkedByMe of an anonymous viewer', async () => {
      const anonymous = await t.statements.count(() => t.data('{ posts(first: 10) { id } }'));
      const flagged = await t.statements.count(() =>
        t.data('{ posts(first: 10) { id isBookmarkedByMe } }'),
      );
      expect(flagged).toBe(anonymous);
    });
  });

  describe('on the WebSocket', () => {
    it('should tell each subscriber whether they bookmarked the post of an event', async () => {
      const { ws } = await t.listen();
      const postId = await createPost('Live');
      await bookmark(postId, reader);
      const query = `subscription ($postId: ID!) { postLikesChanged(postId: $postId) { id isBookmarkedByMe } }`;
      const clients = [wsClient(ws, reader.token), wsClient(ws, stranger.token), wsClient(ws)];
      try {
        const streams = clients.map(({ client }) => collect(client, query, { postId }));
        await t.untilSubscribed(BlogEvent.PostLikesChanged, 3);
        await t.data(LIKE_POST, { postId }, author.token);
        const [asReader, asStranger, asAnonymous] = await Promise.all(
          streams.map(async (stream) => (await stream.next(1))[0]),
        );
        expect(asReader.data?.postLikesChanged).toEqual({ id: postId, isBookmarkedByMe: true });
        expect(asStranger.data?.postLikesChanged).toEqual({ id: postId, isBookmarkedByMe: false });
        expect(asAnonymous.data?.postLikesChanged).toEqual({ id: postId, isBookmarkedByMe: false });
      } finally {
        await Promise.all(clients.map(({ client }) => client.dispose()));
      }
    });
  });
});

describe('Bookmarks and the write rate limit (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('should count each bookmark mutation as a write, and refuse the ones over the limit', async () => {
    const author = await t.signUp();
    const reader = await t.signUp();
    const { createPost } = await t.data(
      CREATE_POST,
      { input: { title: 'Limited', content: 'x' } },
      author.token,
    );
    const postId = createPost.id;
    const refused = await t.gql(
      `mutation ($postId: ID!) {
        a: bookmarkPost(postId: $postId) { id }
        b: unbookmarkPost(postId: $postId) { id }
        c: bookmarkPost(postId: $postId) { id }
        d: unbookmarkPost(postId: $postId) { id }
      }`,
      { postId },
      reader.token,
    );
    expect(codeOf(refused)).toBe('TOO_MANY_REQUESTS');
    expect(await t.dataSource.getRepository(Bookmark).countBy({ postId })).toBe(0);

    await t.data(BOOKMARK, { postId }, reader.token);
    await t.data(UNBOOKMARK, { postId }, reader.token);
    await t.data(BOOKMARK, { postId }, reader.token);
    expect(codeOf(await t.gql(UNBOOKMARK, { postId }, reader.token))).toBe('TOO_MANY_REQUESTS');
    expect(await t.dataSource.getRepository(Bookmark).countBy({ postId })).toBe(1);
  });
});
