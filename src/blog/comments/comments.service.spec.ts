import { CommentsService } from './comments.service';
import { newId } from '../common/uuid';
import { PostsService } from '../posts/posts.service';
import {
  BlogTestingModule,
  createBlogTestingModule,
  refusalOf,
} from '../testing/blog-testing-module';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

describe('CommentsService', () => {
  let blog: BlogTestingModule;
  let comments: CommentsService;
  let posts: PostsService;
  let author: User;
  let reader: User;
  let other: User;

  const postBy = (user: User, publish = true) =>
    posts.create({ input: { title: 'Title', content: 'Content', publish } }, user);

  beforeEach(async () => {
    blog = await createBlogTestingModule([CommentsService, PostsService, UsersService]);
    comments = blog.moduleRef.get(CommentsService);
    posts = blog.moduleRef.get(PostsService);
    [author, reader, other] = [await blog.signUp(), await blog.signUp(), await blog.signUp()];
  });

  afterEach(() => blog.close());

  describe('add', () => {
    it('should comment a published post as the viewer, and announce the comment', async () => {
      const post = await postBy(author);
      const comment = await comments.add(post.id, 'Nice post', reader);
      expect(comment).toMatchObject({ postId: post.id, authorId: reader.id, text: 'Nice post' });
      expect(blog.events.recorded).toContain(`commentAdded ${comment.id} on ${post.id}`);
      expect((await comments.countByPosts([post.id], null)).get(post.id)).toBe(1);
    });

    it('should refuse an anonymous viewer with UNAUTHENTICATED', async () => {
      const post = await postBy(author);
      expect(await refusalOf(comments.add(post.id, 'Hi', null))).toEqual({
        code: 'UNAUTHENTICATED',
      });
    });

    it("should answer someone else's draft as NOT_FOUND, and one's own as BAD_USER_INPUT", async () => {
      const draft = await postBy(author, false);
      expect(await refusalOf(comments.add(draft.id, 'Hi', reader))).toEqual({
        code: 'NOT_FOUND',
      });
      expect(await refusalOf(comments.add(draft.id, 'Hi', author))).toEqual({
        code: 'BAD_USER_INPUT',
        field: 'postId',
      });
      expect((await comments.countByPosts([draft.id], null)).get(draft.id) ?? 0).toBe(0);
    });
  });

  describe('delete', () => {
    it("should let the comment's author and the post's author delete it", async () => {
      const post = await postBy(author);
      const first = await comments.add(post.id, 'One', reader);
      const second = await comments.add(post.id, 'Two', reader);
      expect(await comments.delete(first.id, reader)).toBe(first.id);
      expect(await comments.delete(second.id, author)).toBe(second.id);
      expect(await comments.findByIds([first.id, second.id])).toEqual([]);
    });

    it('should let an admin delete any comment', async () => {
      const admin = await blog.signUp('admin');
      const post = await postBy(author);
      const comment = await comments.add(post.id, 'Spam', reader);
      expect(await comments.delete(comment.id, admin)).toBe(comment.id);
    });

    it('should refuse anyone else with FORBIDDEN and keep the comment', async () => {
      const post = await postBy(author);
      const comment = await comments.add(post.id, 'Mine', reader);
      expect(await refusalOf(comments.delete(comment.id, other))).toEqual({ code: 'FORBIDDEN' });
      expect(await refusalOf(comments.delete(comment.id, null))).toEqual({
        code: 'UNAUTHENTICATED',
      });
      expect(await comments.findByIds([comment.id])).toHaveLength(1);
    });

    it('should answer a missing comment as NOT_FOUND', async () => {
      expect(await refusalOf(comments.delete(newId(), reader))).toEqual({ code: 'NOT_FOUND' });
    });
  });

  describe('listByPosts', () => {
    it('should give each post a page of its comments, oldest first, going on after the last seen', async () => {
      const [a, b] = [await postBy(author), await postBy(author)];
      const texts = ['first', 'second', 'third'];
      const added = [];
      for (const text of texts) added.push(await comments.add(a.id, text, reader));
      const firstPage = await comments.listByPosts([a.id, b.id], { first: 2, after: null }, null);
      expect(firstPage.get(a.id)?.map((comment) => comment.text)).toEqual(['first', 'second']);
      expect(firstPage.get(b.id)).toEqual([]);
      const next = await comments.listByPosts([a.id], { first: 2, after: added[1].id }, null);
      expect(next.get(a.id)?.map((comment) => comment.text)).toEqual(['third']);
    });

    it('should read nothing for an empty page', async () => {
      const post = await postBy(author);
      await comments.add(post.id, 'Hi', reader);
      expect(
        (await comments.listByPosts([post.id], { first: 0, after: null }, null)).get(post.id),
      ).toEqual([]);
    });
  });
});
