import { Comment, Like, Post } from '../src/blog';
import { refuseDeletes } from './helpers/databases';
import {
  ADD_COMMENT,
  CREATE_POST,
  DELETE_POST,
  LIKE_POST,
  MISSING_ID,
  POST_BY_ID,
  PUBLISH_POST,
  UPDATE_POST,
} from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';

describe('Drafts, publishing and ownership (e2e)', () => {
  let t: TestApp;
  let author: TestUser;
  let other: TestUser;
  let admin: TestUser;

  const createPost = async (input: Record<string, unknown>, token = author.token) =>
    (await t.data(CREATE_POST, { input }, token)).createPost;
  const rowOf = (id: string) => t.dataSource.getRepository(Post).findOneBy({ id });

  beforeAll(async () => {
    t = await TestApp.start();
    author = await t.signUp({ name: 'Author' });
    other = await t.signUp({ name: 'Other' });
    admin = await t.signUp({ name: 'Admin' });
    await t.makeAdmin(admin.user.id);
  });
  afterAll(() => t.close());

  describe('drafts', () => {
    let draft: { id: string; publishedAt: string | null };

    beforeAll(async () => {
      draft = await createPost({ title: 'Draft', content: 'Not yet', publish: false });
    });

    it('should keep a post created with publish: false as a draft', () => {
      expect(draft.publishedAt).toBeNull();
    });

    it('should show a draft to its author and admins only', async () => {
      expect((await t.data(POST_BY_ID, { id: draft.id }, author.token)).post.id).toBe(draft.id);
      expect((await t.data(POST_BY_ID, { id: draft.id }, admin.token)).post.id).toBe(draft.id);
      expect((await t.data(POST_BY_ID, { id: draft.id }, other.token)).post).toBeNull();
      expect((await t.data(POST_BY_ID, { id: draft.id })).post).toBeNull();
    });

    it('should keep drafts out of every list', async () => {
      const lists = await t.data(
        `query ($a: ID!) { posts { id } feed { id } user(id: $a) { postsCount posts { id } }
           postsConnection { totalCount edges { node { id } } } }`,
        { a: author.user.id },
        author.token,
      );
      const ids = JSON.stringify(lists);
      expect(ids).not.toContain(draft.id);
      expect(lists.user.postsCount).toBe(0);
    });

    it("should list the viewer's drafts, newest first, in myDrafts", async () => {
      const newer = await createPost({ title: 'Draft 2', content: 'Later', publish: false });
      const { myDrafts } = await t.data(`{ myDrafts { id } }`, {}, author.token);
      expect(myDrafts).toEqual([{ id: newer.id }, { id: draft.id }]);
      expect((await t.data(`{ myDrafts { id } }`, {}, other.token)).myDrafts).toEqual([]);
      expect((await t.gql(`{ myDrafts { id } }`)).errors?.[0].extensions?.code).toBe(
        'UNAUTHENTICATED',
      );
    });

    it('should refuse comments and likes on a draft', async () => {
      const byAuthor = await t.gql(ADD_COMMENT, { postId: draft.id, text: 'Hi' }, author.token);
      expect(byAuthor.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'postId' });
      const byOther = await t.gql(LIKE_POST, { postId: draft.id }, other.token);
      expect(byOther.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    });

    it('should publish a draft, which then shows in the lists newest first', async () => {
      const { publishPost } = await t.data(PUBLISH_POST, { id: draft.id }, author.token);
      expect(publishPost.publishedAt).not.toBeNull();
      const { posts } = await t.data(`{ posts(first: 1) { id } }`);
      expect(posts).toEqual([{ id: draft.id }]);
      const again = await t.data(PUBLISH_POST, { id: draft.id }, author.token);
      expect(again.publishPost.publishedAt).toBe(publishPost.publishedAt);
    });
  });

  describe('ownership', () => {
    let post: { id: string };

    beforeEach(async () => {
      post = await createPost({ title: 'Mine', content: 'Original' });
    });

    it.each([
      ['updatePost', UPDATE_POST, { input: { title: 'Hijacked' } }],
      ['publishPost', PUBLISH_POST, {}],
      ['deletePost', DELETE_POST, {}],
    ])(
      'should answer FORBIDDEN to %s by someone else, and change nothing',
      async (_, document, extra) => {
        const before = await rowOf(post.id);
        const response = await t.gql(document, { id: post.id, ...extra }, other.token);
        expect(response.errors?.[0].extensions?.code).toBe('FORBIDDEN');
        expect(await rowOf(post.id)).toEqual(before);
      },
    );

    it.each([
      ['updatePost', UPDATE_POST, { input: { title: 'Anon' } }],
      ['deletePost', DELETE_POST, {}],
    ])('should answer UNAUTHENTICATED to %s without a viewer', async (_, document, extra) => {
      const response = await t.gql(document, { id: post.id, ...extra });
      expect(response.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    });

    it('should answer NOT_FOUND for a post that does not exist', async () => {
      const response = await t.gql(
        UPDATE_POST,
        { id: MISSING_ID, input: { title: 'X' } },
        author.token,
      );
      expect(response.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    });

    it('should let the author update title and content, trimmed', async () => {
      const { updatePost } = await t.data(
        UPDATE_POST,
        { id: post.id, input: { title: '  New title ' } },
        author.token,
      );
      expect(updatePost).toMatchObject({ title: 'New title', content: 'Original' });
      expect((await rowOf(post.id))?.title).toBe('New title');
    });

    it('should let an admin update and delete any post', async () => {
      await t.data(UPDATE_POST, { id: post.id, input: { content: 'Moderated' } }, admin.token);
      expect((await rowOf(post.id))?.content).toBe('Moderated');
      expect((await t.data(DELETE_POST, { id: post.id }, admin.token)).deletePost).toBe(post.id);
      expect(await rowOf(post.id)).toBeNull();
    });

    it.each([
      ['input.title', { title: '' }],
      ['input.title', { title: 'x'.repeat(201) }],
      ['input.content', { content: 'x'.repeat(50_001) }],
    ])('should answer BAD_USER_INPUT naming %s, and change nothing', async (field, input) => {
      const before = await rowOf(post.id);
      const response = await t.gql(UPDATE_POST, { id: post.id, input }, author.token);
      expect(response.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field });
      expect(await rowOf(post.id)).toEqual(before);
    });

    it('should delete a post with its comments and likes', async () => {
      await t.data(ADD_COMMENT, { postId: post.id, text: 'A comment' }, other.token);
      await t.data(LIKE_POST, { postId: post.id }, other.token);
      expect((await t.data(DELETE_POST, { id: post.id }, author.token)).deletePost).toBe(post.id);
      expect(await rowOf(post.id)).toBeNull();
      expect(await t.dataSource.getRepository(Comment).countBy({ postId: post.id })).toBe(0);
      expect(await t.dataSource.getRepository(Like).countBy({ postId: post.id })).toBe(0);
    });

    it('should delete nothing when the delete fails half-way', async () => {
      await t.data(ADD_COMMENT, { postId: post.id, text: 'Survives' }, other.token);
      const allowDeletes = await refuseDeletes(t.dataSource, 'posts');
      try {
        const response = await t.gql(DELETE_POST, { id: post.id }, author.token);
        expect(response.errors?.[0].extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      } finally {
        await allowDeletes();
      }
      expect(await rowOf(post.id)).not.toBeNull();
      expect(await t.dataSource.getRepository(Comment).countBy({ postId: post.id })).toBe(1);
    });
  });
});
