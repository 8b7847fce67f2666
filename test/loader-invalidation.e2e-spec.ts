import { CREATE_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';

/**
 * The per-request loaders cache what they read; a mutation must not let later fields of the
 * same operation see what was cached before it changed the data.
 */
describe('Loader caches across the mutations of one operation (e2e)', () => {
  let t: TestApp;
  let author: TestUser;
  let reader: TestUser;

  beforeAll(async () => {
    t = await TestApp.start();
    author = await t.signUp({ name: 'Author' });
    reader = await t.signUp({ name: 'Reader' });
  });
  afterAll(() => t.close());

  const newPost = async (publish = true, user = author) =>
    (await t.data(CREATE_POST, { input: { title: 'Post', content: 'Body', publish } }, user.token))
      .createPost.id as string;

  it('should count each of two aliased addComment calls in the next one', async () => {
    const postId = await newPost();
    const { a, b } = await t.data(
      `mutation ($postId: ID!) {
        a: addComment(postId: $postId, text: "One") { post { commentsCount } }
        b: addComment(postId: $postId, text: "Two") { post { commentsCount } }
      }`,
      { postId },
      reader.token,
    );
    expect([a.post.commentsCount, b.post.commentsCount]).toEqual([1, 2]);
  });

  it("should show the author's new postsCount after each aliased publishPost", async () => {
    const writer = await t.signUp({ name: 'Writer' });
    const first = await newPost(false, writer);
    const second = await newPost(false, writer);
    const { a, b } = await t.data(
      `mutation ($first: ID!, $second: ID!) {
        a: publishPost(id: $first) { author { postsCount } }
        b: publishPost(id: $second) { author { postsCount } }
      }`,
      { first, second },
      writer.token,
    );
    expect([a.author.postsCount, b.author.postsCount]).toEqual([1, 2]);
  });

  it('should show likesCount and isLikedByMe as each aliased like and unlike leaves them', async () => {
    const postId = await newPost();
    const fields = '{ likesCount isLikedByMe }';
    const data = await t.data(
      `mutation ($postId: ID!) {
        a: likePost(postId: $postId) ${fields}
        b: likePost(postId: $postId) ${fields}
        c: unlikePost(postId: $postId) ${fields}
        d: likePost(postId: $postId) ${fields}
      }`,
      { postId },
      reader.token,
    );
    expect([data.a, data.b, data.c, data.d]).toEqual([
      { likesCount: 1, isLikedByMe: true },
      { likesCount: 1, isLikedByMe: true },
      { likesCount: 0, isLikedByMe: false },
      { likesCount: 1, isLikedByMe: true },
    ]);
  });

  it("should show followersCount and the follower's followingCount after each follow", async () => {
    const followee = await t.signUp({ name: 'Followee' });
    const follower = await t.signUp({ name: 'Follower' });
    const ownPost = await newPost(true, follower);
    const data = await t.data(
      `mutation ($userId: ID!, $postId: ID!) {
        before: likePost(postId: $postId) { author { followingCount } }
        a: followUser(userId: $userId) { followersCount isFollowedByMe }
        b: unfollowUser(userId: $userId) { followersCount isFollowedByMe }
        c: followUser(userId: $userId) { followersCount isFollowedByMe }
        after: unlikePost(postId: $postId) { author { followingCount } }
      }`,
      { userId: followee.user.id, postId: ownPost },
      follower.token,
    );
    expect(data.before.author.followingCount).toBe(0);
    expect([data.a, data.b, data.c]).toEqual([
      { followersCount: 1, isFollowedByMe: true },
      { followersCount: 0, isFollowedByMe: false },
      { followersCount: 1, isFollowedByMe: true },
    ]);
    expect(data.after.author.followingCount).toBe(1);
  });

  it('should show the profile as the last of two aliased updateProfile calls left it', async () => {
    const user = await t.signUp({ name: 'Before' });
    const ownPost = await newPost(true, user);
    const data = await t.data(
      `mutation ($postId: ID!) {
        a: updateProfile(input: { name: "Renamed" }) { name handle }
        b: updateProfile(input: { handle: "renamed_handle" }) { name handle }
        c: likePost(postId: $postId) { author { name handle } }
      }`,
      { postId: ownPost },
      user.token,
    );
    expect(data.b).toEqual({ name: 'Renamed', handle: 'renamed_handle' });
    expect(data.c.author).toEqual({ name: 'Renamed', handle: 'renamed_handle' });
  });

  describe('in a query', () => {
    let postId: string;

    beforeAll(async () => {
      postId = await newPost();
    });

    const statementsFor = (query: string, token?: string) =>
      t.statements.count(() => t.data(query, { id: postId }, token));

    it('should still answer the same field of the same parent from the cache', async () => {
      const once = await statementsFor(
        `query ($id: ID!) { a: post(id: $id) { likesCount commentsCount author { postsCount } } }`,
      );
      const twice = await statementsFor(
        `query ($id: ID!) {
          a: post(id: $id) { likesCount commentsCount author { postsCount } }
          b: post(id: $id) { likesCount commentsCount author { postsCount } }
        }`,
      );
      // The second alias adds its own post(id:) read, and nothing else.
      expect(twice).toBe(once + 1);
    });

    it('should still answer the signed-in viewer as a user without a statement', async () => {
      const withoutAuthor = await statementsFor(
        `query ($id: ID!) { post(id: $id) { id } }`,
        author.token,
      );
      const withAuthor = await statementsFor(
        `query ($id: ID!) { post(id: $id) { id author { name } } }`,
        author.token,
      );
      expect(withAuthor).toBe(withoutAuthor);
    });
  });
});
