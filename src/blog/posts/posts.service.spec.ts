import { Page } from '../common/pagination';
import { newId } from '../common/uuid';
import {
  BlogTestingModule,
  createBlogTestingModule,
  refusalOf,
} from '../testing/blog-testing-module';
import { Role } from '../users/roles';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { CreatePostArgs } from './dto/create-post.args';
import { Post } from './post.entity';
import { PostsService } from './posts.service';

const page = (first: number, after: string | null = null): Page => ({ first, after });

describe('PostsService', () => {
  let blog: BlogTestingModule;
  let posts: PostsService;
  let ada: User;
  let bob: User;
  let admin: User;
  /** A post by `author`: published unless `draft`, at `publishedAt` when given. */
  async function postBy(author: User, draft = false, publishedAt?: string): Promise<Post> {
    const post = await posts.create(
      { input: { title: 'A title', content: 'Some content', publish: !draft } },
      author,
    );
    if (publishedAt) {
      await blog.dataSource.query('UPDATE posts SET published_at = ? WHERE id = ?', [
        publishedAt,
        post.id,
      ]);
    }
    return post;
  }

  beforeEach(async () => {
    blog = await createBlogTestingModule([PostsService, UsersService]);
    posts = blog.moduleRef.get(PostsService);
    [ada, bob, admin] = [await blog.signUp(), await blog.signUp(), await blog.signUp(Role.ADMIN)];
  });

  afterEach(() => blog.close());

  describe('create', () => {
    it('should publish a post by default, as the viewer, and announce it', async () => {
      const post = await postBy(ada);
      expect(post).toMatchObject({ authorId: ada.id, title: 'A title' });
      expect(post.publishedAt).toBeInstanceOf(Date);
      expect(blog.events.recorded).toEqual([`postPublished ${post.id}`]);
      expect((await posts.findVisible(post.id, null))?.title).toBe('A title');
    });

    it('should keep a draft unpublished and announce nothing', async () => {
      const draft = await postBy(ada, true);
      expect(draft.publishedAt).toBeNull();
      expect(blog.events.recorded).toEqual([]);
    });

    it('should refuse an anonymous author with UNAUTHENTICATED', async () => {
      const args = { input: { title: 'T', content: 'C' } };
      expect(await refusalOf(posts.create(args, null))).toEqual({ code: 'UNAUTHENTICATED' });
    });

    it('should refuse to create a post as someone else, unless the viewer is an admin', async () => {
      const args: CreatePostArgs = { title: 'T', content: 'C', authorId: bob.id };
      expect(await refusalOf(posts.create(args, ada))).toEqual({ code: 'FORBIDDEN' });
      expect((await posts.create(args, admin)).authorId).toBe(bob.id);
    });

    it("should refuse an admin's authorId that names no user", async () => {
      const args: CreatePostArgs = { title: 'T', content: 'C', authorId: newId() };
      expect(await refusalOf(posts.create(args, admin))).toEqual({
        code: 'BAD_USER_INPUT',
        field: 'authorId',
      });
    });

    it.each<[string, CreatePostArgs, string]>([
      ['both forms', { input: { title: 'T', content: 'C' }, title: 'T' }, 'input'],
      ['neither form', {}, 'input'],
      ['a flat form without title', { content: 'C' }, 'title'],
      ['a flat form without content', { title: 'T' }, 'content'],
    ])('should refuse %s with BAD_USER_INPUT naming the field', async (_, args, field) => {
      expect(await refusalOf(posts.create(args, ada))).toEqual({ code: 'BAD_USER_INPUT', field });
      expect(await posts.countPublished()).toBe(0);
    });
  });

  describe('drafts', () => {
    it('should show a draft to its author and admins only', async () => {
      const draft = await postBy(ada, true);
      expect(await posts.findVisible(draft.id, ada)).not.toBeNull();
      expect(await posts.findVisible(draft.id, admin)).not.toBeNull();
      expect(await posts.findVisible(draft.id, bob)).toBeNull();
      expect(await posts.findVisible(draft.id, null)).toBeNull();
    });

    it('should leave drafts out of every list and count of published posts', async () => {
      const published = await postBy(ada);
      await postBy(ada, true);
      expect((await posts.list(page(10))).map((post) => post.id)).toEqual([published.id]);
      expect((await posts.list(page(10), { authorId: ada.id })).length).toBe(1);
      expect(await posts.countPublished()).toBe(1);
      expect(await posts.countPublished(ada.id)).toBe(1);
    });

    it("should list the viewer's own drafts only, and refuse an anonymous viewer", async () => {
      const draft = await postBy(ada, true);
      await postBy(bob, true);
      expect((await posts.listDrafts(ada, page(10))).map((post) => post.id)).toEqual([draft.id]);
      expect(await refusalOf(posts.listDrafts(null, page(10)))).toEqual({
        code: 'UNAUTHENTICATED',
      });
    });

    it("should answer someone else's draft as NOT_FOUND and one's own as BAD_USER_INPUT when it must be published", async () => {
      const draft = await postBy(ada, true);
      expect(await refusalOf(posts.findPublished(draft.id, bob))).toEqual({ code: 'NOT_FOUND' });
      expect(await refusalOf(posts.findPublished(draft.id, ada))).toEqual({
        code: 'BAD_USER_INPUT',
        field: 'postId',
      });
    });
  });

  describe('ownership', () => {
    it("should refuse to publish someone else's draft, as if it did not exist", async () => {
      const draft = await postBy(ada, true);
      expect(await refusalOf(posts.publish(draft.id, bob))).toEqual({ code: 'NOT_FOUND' });
      expect((await posts.findVisible(draft.id, ada))?.publishedAt).toBeNull();
    });

    it("should refuse to edit or delete someone else's post with FORBIDDEN", async () => {
      const post = await postBy(ada);
      expect(await refusalOf(posts.update(post.id, { title: 'Mine now' }, bob))).toEqual({
        code: 'FORBIDDEN',
      });
      expect(await refusalOf(posts.delete(post.id, bob))).toEqual({ code: 'FORBIDDEN' });
      expect((await posts.findVisible(post.id, null))?.title).toBe('A title');
    });

    it("should let an admin edit, publish and delete anyone's post", async () => {
      const draft = await postBy(ada, true);
      expect((await posts.update(draft.id, { title: 'Edited' }, admin)).title).toBe('Edited');
      expect((await posts.publish(draft.id, admin)).published).toBe(true);
      expect(await posts.delete(draft.id, admin)).toBe(draft.id);
      expect(await posts.findVisible(draft.id, admin)).toBeNull();
    });

    it('should refuse changes by an anonymous viewer with UNAUTHENTICATED', async () => {
      const post = await postBy(ada);
      for (const change of [
        posts.update(post.id, { title: 'x' }, null),
        posts.publish(post.id, null),
        posts.delete(post.id, null),
      ]) {
        expect(await refusalOf(change)).toEqual({ code: 'UNAUTHENTICATED' });
      }
    });

    it('should answer a missing post as NOT_FOUND', async () => {
      expect(await refusalOf(posts.update(newId(), { title: 'x' }, ada))).toEqual({
        code: 'NOT_FOUND',
      });
    });
  });

  describe('update', () => {
    it('should change only the fields given, and nothing when none is', async () => {
      const post = await postBy(ada);
      const long = '2020-01-01 00:00:00.000';
      await blog.dataSource.query('UPDATE posts SET updated_at = ? WHERE id = ?', [long, post.id]);
      await posts.update(post.id, {}, ada);
      expect((await posts.findVisible(post.id, null))?.updatedAt).toEqual(new Date(`${long}Z`));
      await posts.update(post.id, { content: 'New content' }, ada);
      expect(await posts.findVisible(post.id, null)).toMatchObject({
        title: 'A title',
        content: 'New content',
      });
    });
  });

  describe('publish', () => {
    it('should publish a draft once: publishing again changes nothing and announces nothing', async () => {
      const draft = await postBy(ada, true);
      const first = await posts.publish(draft.id, ada);
      const again = await posts.publish(draft.id, ada);
      expect([first.published, again.published]).toEqual([true, false]);
      expect(again.post.publishedAt).toEqual(first.post.publishedAt);
      expect(blog.events.recorded).toEqual([`postPublished ${draft.id}`]);
    });
  });

  describe('roles and review', () => {
    let editor: User;
    let contributor: User;

    beforeEach(async () => {
      [editor, contributor] = [await blog.signUp(Role.EDITOR), await blog.signUp(Role.CONTRIBUTOR)];
    });

    it('should let a contributor write drafts, and refuse them publishing or scheduling', async () => {
      const draft = await postBy(contributor, true);
      expect(draft.publishedAt).toBeNull();
      const later = {
        input: { title: 'T', content: 'C', publishAt: new Date(Date.now() + 60_000) },
      };
      for (const refused of [
        posts.create({ input: { title: 'T', content: 'C' } }, contributor),
        posts.create(later, contributor),
        posts.publish(draft.id, contributor),
        posts.schedule(draft.id, new Date(Date.now() + 60_000), contributor),
      ]) {
        expect(await refusalOf(refused)).toEqual({ code: 'FORBIDDEN' });
      }
    });

    it('should show a submitted draft to editors, who publish it and end its review', async () => {
      const draft = await postBy(contributor, true);
      expect(await posts.findVisible(draft.id, editor)).toBeNull();
      const submitted = await posts.submitForReview(draft.id, contributor);
      expect(submitted.reviewState).toBe('AWAITING_REVIEW');
      expect((await posts.findVisible(draft.id, editor))?.id).toBe(draft.id);
      expect(await posts.findVisible(draft.id, ada)).toBeNull();
      expect((await posts.listAwaitingReview(editor, { first: 10, after: null })).posts).toEqual([
        expect.objectContaining({ id: draft.id }),
      ]);
      const { post } = await posts.publish(draft.id, editor);
      expect(post).toMatchObject({ reviewState: null, rejectionReason: null });
      expect(await posts.countAwaitingReview()).toBe(0);
    });

    it('should send a rejected draft back with its reason, private again', async () => {
      const draft = await postBy(contributor, true);
      await posts.submitForReview(draft.id, contributor);
      expect(await refusalOf(posts.reject(draft.id, 'No', ada))).toEqual({ code: 'FORBIDDEN' });
      const rejected = await posts.reject(draft.id, ' Not yet. ', editor);
      expect(rejected).toMatchObject({ reviewState: 'REJECTED', rejectionReason: 'Not yet.' });
      expect(await posts.findVisible(draft.id, editor)).toBeNull();
      expect((await posts.findVisible(draft.id, contributor))?.rejectionReason).toBe('Not yet.');
    });

    it("should let editors unpublish anyone's post, and authors only their own", async () => {
      const post = await postBy(ada);
      expect(await refusalOf(posts.unpublish(post.id, bob))).toEqual({ code: 'FORBIDDEN' });
      expect((await posts.unpublish(post.id, editor)).publishedAt).toBeNull();
    });
  });

  describe('delete', () => {
    it('should delete the post with its comments and likes', async () => {
      const post = await postBy(ada);
      const now = new Date().toISOString();
      await blog.dataSource.query(
        'INSERT INTO comments (id, text, post_id, author_id, created_at) VALUES (?, ?, ?, ?, ?)',
        [newId(), 'Nice', post.id, bob.id, now],
      );
      await blog.dataSource.query(
        'INSERT INTO likes (post_id, user_id, created_at) VALUES (?, ?, ?)',
        [post.id, bob.id, now],
      );
      await posts.delete(post.id, ada);
      const left = await blog.dataSource.query(
        'SELECT (SELECT COUNT(*) FROM comments) AS comments, (SELECT COUNT(*) FROM likes) AS likes',
      );
      expect(left).toEqual([{ comments: 0, likes: 0 }]);
    });
  });

  describe('pages', () => {
    it('should list published posts newest first, and go on after the last one seen', async () => {
      const old = await postBy(ada, false, '2024-01-01 00:00:00.000');
      const middle = await postBy(bob, false, '2024-06-01 00:00:00.000');
      const recent = await postBy(ada, false, '2025-01-01 00:00:00.000');
      const ids = (list: Post[]) => list.map((post) => post.id);
      expect(ids(await posts.list(page(2)))).toEqual([recent.id, middle.id]);
      expect(ids(await posts.list(page(2, middle.id)))).toEqual([old.id]);
      expect(ids(await posts.list(page(2, old.id)))).toEqual([]);
      expect(ids(await posts.list(page(5), { authorId: ada.id }))).toEqual([recent.id, old.id]);
    });

    it('should say whether a next page follows, exactly at the edge', async () => {
      await postBy(ada);
      await postBy(ada);
      expect((await posts.listWithNext(page(1))).hasNextPage).toBe(true);
      expect((await posts.listWithNext(page(2))).hasNextPage).toBe(false);
      expect(await posts.listWithNext(page(0))).toEqual({ posts: [], hasNextPage: true });
    });

    it('should refuse an after id that names no published post with BAD_USER_INPUT', async () => {
      const draft = await postBy(ada, true);
      for (const after of [draft.id, newId()]) {
        expect(await refusalOf(posts.list(page(5, after)))).toEqual({
          code: 'BAD_USER_INPUT',
          field: 'after',
        });
      }
    });

    it('should give each author a page of their own posts, and an empty one to an author with none', async () => {
      await postBy(ada, false, '2024-01-01 00:00:00.000');
      const recent = await postBy(ada, false, '2025-01-01 00:00:00.000');
      const byAuthor = await posts.listByAuthors([ada.id, bob.id], page(1));
      expect(byAuthor.get(ada.id)?.map((post) => post.id)).toEqual([recent.id]);
      expect(byAuthor.get(bob.id)).toEqual([]);
      expect((await posts.listByAuthors([ada.id], page(0))).get(ada.id)).toEqual([]);
      expect((await posts.countPublishedByAuthors([ada.id, bob.id])).get(ada.id)).toBe(2);
    });
  });
});
