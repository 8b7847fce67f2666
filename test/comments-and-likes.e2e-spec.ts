import { Comment, Like } from '../src/blog';
import {
  ADD_COMMENT,
  CREATE_POST,
  DELETE_COMMENT,
  LIKE_POST,
  MISSING_ID,
  UNLIKE_POST,
} from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';

describe('Comments and likes (e2e)', () => {
  let t: TestApp;
  let author: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let postId: string;

  beforeAll(async () => {
    t = await TestApp.start();
    author = await t.signUp({ name: 'Author' });
    reader = await t.signUp({ name: 'Reader' });
    stranger = await t.signUp({ name: 'Stranger' });
    postId = (
      await t.data(CREATE_POST, { input: { title: 'Post', content: 'Body' } }, author.token)
    ).createPost.id;
  });
  afterAll(() => t.close());

  const comment = async (text: string, token = reader.token) =>
    (await t.data(ADD_COMMENT, { postId, text }, token)).addComment;

  describe('comments', () => {
    it('should add a trimmed comment by the viewer to a published post', async () => {
      const added = await comment('  First!  ');
      expect(added).toMatchObject({
        text: 'First!',
        author: { id: reader.user.id },
        post: { id: postId },
      });
    });

    it('should list comments oldest first, page them, and count them', async () => {
      for (let i = 2; i <= 5; i++) await comment(`Comment ${i}`);
      const query = `query ($id: ID!, $after: ID) { post(id: $id) { commentsCount
        comments(first: 2, after: $after) { id text author { name } } } }`;
      const first = (await t.data(query, { id: postId })).post;
      expect(first.commentsCount).toBe(5);
      expect(first.comments.map((c: { text: string }) => c.text)).toEqual(['First!', 'Comment 2']);
      const second = (await t.data(query, { id: postId, after: first.comments[1].id })).post;
      expect(second.comments.map((c: { text: string }) => c.text)).toEqual([
        'Comment 3',
        'Comment 4',
      ]);
      expect(second.comments[0].author).toEqual({ name: 'Reader' });
    });

    it.each([
      ['an empty text', '   '],
      ['a text over 5,000 characters', 'x'.repeat(5001)],
    ])('should answer BAD_USER_INPUT naming text for %s, and write nothing', async (_, text) => {
      const before = await t.dataSource.getRepository(Comment).count();
      const response = await t.gql(ADD_COMMENT, { postId, text }, reader.token);
      expect(response.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'text' });
      expect(await t.dataSource.getRepository(Comment).count()).toBe(before);
    });

    it('should answer NOT_FOUND for a missing post and UNAUTHENTICATED when anonymous', async () => {
      const missing = await t.gql(ADD_COMMENT, { postId: MISSING_ID, text: 'Hello' }, reader.token);
      expect(missing.errors?.[0].extensions?.code).toBe('NOT_FOUND');
      const anonymous = await t.gql(ADD_COMMENT, { postId, text: 'Hello' });
      expect(anonymous.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    });

    it("should let the comment's author, the post's author and an admin delete it", async () => {
      const admin = await t.signUp();
      await t.makeAdmin(admin.user.id);
      for (const token of [reader.token, author.token, admin.token]) {
        const { id } = await comment('To delete');
        expect((await t.data(DELETE_COMMENT, { id }, token)).deleteComment).toBe(id);
        expect(await t.dataSource.getRepository(Comment).findOneBy({ id })).toBeNull();
      }
    });

    it('should answer FORBIDDEN to anyone else, and keep the comment', async () => {
      const { id } = await comment('Keep me');
      const response = await t.gql(DELETE_COMMENT, { id }, stranger.token);
      expect(response.errors?.[0].extensions?.code).toBe('FORBIDDEN');
      expect(await t.dataSource.getRepository(Comment).findOneBy({ id })).not.toBeNull();
      const missing = await t.gql(DELETE_COMMENT, { id: MISSING_ID }, stranger.token);
      expect(missing.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    });
  });

  describe('likes', () => {
    const likeRows = () => t.dataSource.getRepository(Like).countBy({ postId });

    it('should count likes and tell the viewer whether they like the post', async () => {
      const { likePost } = await t.data(LIKE_POST, { postId }, reader.token);
      expect(likePost).toEqual({ id: postId, likesCount: 1, isLikedByMe: true });
      const asStranger = await t.data(
        `query ($id: ID!) { post(id: $id) { likesCount isLikedByMe } }`,
        { id: postId },
        stranger.token,
      );
      expect(asStranger.post).toEqual({ likesCount: 1, isLikedByMe: false });
      const anonymous = await t.data(`query ($id: ID!) { post(id: $id) { isLikedByMe } }`, {
        id: postId,
      });
      expect(anonymous.post.isLikedByMe).toBe(false);
    });

    it('should be idempotent: liking twice leaves one like', async () => {
      await t.data(LIKE_POST, { postId }, reader.token);
      const { likePost } = await t.data(LIKE_POST, { postId }, reader.token);
      expect(likePost.likesCount).toBe(1);
      expect(await likeRows()).toBe(1);
    });

    it('should keep one row when one user likes concurrently', async () => {
      const fresh = await t.signUp();
      const responses = await Promise.all(
        Array.from({ length: 8 }, () => t.gql(LIKE_POST, { postId }, fresh.token)),
      );
      expect(responses.every((r) => !r.errors)).toBe(true);
      expect(
        await t.dataSource.getRepository(Like).countBy({ postId, userId: fresh.user.id }),
      ).toBe(1);
    });

    it('should unlike, idempotently', async () => {
      const before = await likeRows();
      const { unlikePost } = await t.data(UNLIKE_POST, { postId }, reader.token);
      expect(unlikePost).toEqual({ id: postId, likesCount: before - 1, isLikedByMe: false });
      const again = await t.data(UNLIKE_POST, { postId }, reader.token);
      expect(again.unlikePost.likesCount).toBe(before - 1);
    });

    it('should answer UNAUTHENTICATED when anonymous and NOT_FOUND for a missing post', async () => {
      expect((await t.gql(LIKE_POST, { postId })).errors?.[0].extensions?.code).toBe(
        'UNAUTHENTICATED',
      );
      const missing = await t.gql(LIKE_POST, { postId: MISSING_ID }, reader.token);
      expect(missing.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    });
  });
});
