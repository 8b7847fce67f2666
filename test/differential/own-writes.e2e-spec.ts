import { EXECUTIONS, fastPathDifferences, onPath, sixPostsByThree } from './harness';
import { LoaderCache } from '../../src/blog/common/loaders';
import { LIKE_POST, MISSING_ID, UNLIKE_POST } from '../helpers/documents';
import { TestApp } from '../helpers/test-app';

/**
 * After a like, a bookmark or a follow (and their undoing), the mutation's own selection reads
 * the viewer's flag from what the write did (`primeAfterClear`), not with a statement: a faster
 * path. Every document here goes to the service with it and without it (the flag read again, as
 * before), on the same database, each followed by a read of what the writes left (counts, flags,
 * bookmarks, the author's unread notifications); any difference in status, data, errors or
 * what was written fails. On graphql-js and on compiled execution.
 */

type Who = 'anonymous' | 'writer' | 'reader';
type Line = [name: string, query: string, variables: Record<string, unknown>, who: Who];

const FLAGS = 'id likesCount isLikedByMe isBookmarkedByMe';

/** The documents, for the users and posts made in beforeAll. */
function lines(ids: { posts: string[]; writer: string; third: string }): Line[] {
  const [first, second] = ids.posts;
  const as = (who: Who, name: string, query: string, variables: Record<string, unknown> = {}) =>
    [
      `${name}, ${who}`,
      query,
      { post: first, other: second, user: ids.writer, ...variables },
      who,
    ] as Line;
  const both = (name: string, query: string, variables?: Record<string, unknown>): Line[] => [
    as('reader', name, query, variables),
    as('writer', name, query, variables),
  ];
  return [
    ...both('a like', `mutation ($post: ID!) { likePost(postId: $post) { ${FLAGS} } }`),
    ...both('an unlike', `mutation ($post: ID!) { unlikePost(postId: $post) { ${FLAGS} } }`),
    ...both(
      'a like and an unlike of one post, then of another',
      `mutation ($post: ID!, $other: ID!) {
        a: likePost(postId: $post) { isLikedByMe likesCount }
        b: unlikePost(postId: $post) { isLikedByMe likesCount }
        c: likePost(postId: $other) { isLikedByMe }
        d: likePost(postId: $post) { isLikedByMe ...F } }
      fragment F on Post { likesCount isBookmarkedByMe }`,
    ),
    ...both(
      "a like, and the liked post among its author's posts",
      `mutation ($post: ID!) { likePost(postId: $post) { isLikedByMe
        author { posts(first: 6) { id isLikedByMe likesCount } } } }`,
    ),
    ...both(
      'a bookmark, a like of the same post, then the bookmarks',
      `mutation ($post: ID!) {
        a: bookmarkPost(postId: $post) { ${FLAGS} }
        b: likePost(postId: $post) { ${FLAGS} } }`,
    ),
    ...both(
      'a bookmark removed, and one removed twice',
      `mutation ($post: ID!, $other: ID!) {
        a: unbookmarkPost(postId: $post) { ${FLAGS} }
        b: unbookmarkPost(postId: $other) { ${FLAGS} }
        c: unbookmarkPost(postId: $other) { isBookmarkedByMe } }`,
    ),
    ...both(
      'a bookmark, and the bookmarked post in its author’s posts',
      `mutation ($other: ID!) { bookmarkPost(postId: $other) { isBookmarkedByMe
        author { posts(first: 6) { id isBookmarkedByMe } } } }`,
    ),
    as(
      'reader',
      'a follow, the followed user’s posts and their author',
      `mutation ($user: ID!) { followUser(userId: $user) { id followersCount isFollowedByMe
        posts(first: 2) { author { isFollowedByMe followersCount } } } }`,
    ),
    as(
      'reader',
      'an unfollow, then a follow of another',
      `mutation ($user: ID!, $third: ID!) {
        a: unfollowUser(userId: $user) { isFollowedByMe followersCount }
        b: followUser(userId: $third) { isFollowedByMe }
        c: unfollowUser(userId: $third) { isFollowedByMe } }`,
      { third: ids.third },
    ),
    as(
      'writer',
      'a follow of oneself, refused',
      `mutation ($user: ID!) { followUser(userId: $user) { isFollowedByMe } }`,
    ),
    ...both(
      'a like of a missing post after one that succeeds',
      `mutation ($post: ID!) { a: likePost(postId: $post) { isLikedByMe }
        b: likePost(postId: "${MISSING_ID}") { isLikedByMe } }`,
    ),
    as(
      'anonymous',
      'a like, signed out',
      `mutation ($post: ID!) { likePost(postId: $post) { isLikedByMe } }`,
    ),
  ];
}

/** What the writes left, as `who` sees it, and the writer's unread notifications. */
const STATE = `{ posts(first: 6) { ${FLAGS} } users(first: 6) { id followersCount isFollowedByMe }
  myBookmarks(first: 10) { totalCount edges { node { id } } } }`;

describe.each(EXECUTIONS)("A mutation's own writes, read without a statement (%s)", (_, env) => {
  let t: TestApp;
  let tokens: Record<Who, string | undefined>;
  let corpus: Line[];

  beforeAll(async () => {
    t = await TestApp.start({
      env: { ...env, RATE_LIMIT_WRITES_PER_MINUTE: '0' },
    });
    const { writer, reader, third, ids } = await sixPostsByThree(t, (n) => ({
      title: `Post ${n}`,
      content: `Text ${n}`,
    }));
    tokens = { anonymous: undefined, writer: writer.token, reader: reader.token };
    await t.data(LIKE_POST, { postId: ids[1] }, third.token);
    corpus = lines({ posts: [ids[0], ids[1]], writer: writer.user.id, third: third.user.id });
  });

  afterAll(() => t?.close());

  /**
   * Sends `line`, then reads what it left; `plain` reads every flag with its statement. Counts
   * the statements of `line` alone.
   */
  function send(line: Line, plain: boolean) {
    const [, query, variables, who] = line;
    const noPrimes = () =>
      jest.spyOn(LoaderCache.prototype, 'primeAfterClear').mockImplementation(() => {});
    return onPath(plain, noPrimes, async () => {
      const sent = await t.statements.during(() => t.reply(query, variables, tokens[who]));
      const left = await t.reply(STATE, {}, tokens[who === 'anonymous' ? 'reader' : who]);
      const unread = await t.reply('{ unreadNotificationsCount }', {}, tokens.writer);
      return { reply: { reply: sent.result, left, unread }, statements: sent.statements.length };
    });
  }

  it('should answer and write every document as the plain path does', async () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
    expect(await fastPathDifferences(corpus, send)).toEqual([]);
  });

  it("should answer the benchmark's like with one statement fewer", async () => {
    const like = corpus[0];
    // From the same state each time: not liked, so that the like writes its notification.
    const unlike = () => t.data(UNLIKE_POST, { postId: like[2].post }, tokens.reader);
    await unlike();
    const plain = await send(like, true);
    await unlike();
    const fast = await send(like, false);
    expect(fast.reply).toEqual(plain.reply);
    expect(plain.spied).toBe(1);
    expect(fast.statements).toBe(plain.statements - 1);
  });
});
