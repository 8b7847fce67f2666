import { decodeBookmarkCursor } from './bookmark-cursor';
import { BookmarksService } from './bookmarks.service';
import { newId } from '../common/uuid';
import { CreateBookmarks1765000300000 } from '../migrations/1765000300000-create-bookmarks';
import { Post } from '../posts/post.entity';
import { PostsService } from '../posts/posts.service';
import {
  BlogTestingModule,
  createBlogTestingModule,
  refusalOf,
} from '../testing/blog-testing-module';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

describe('BookmarksService', () => {
  let blog: BlogTestingModule;
  let bookmarks: BookmarksService;
  let posts: PostsService;
  let author: User;
  let reader: User;

  const publish = (title: string) => posts.create({ input: { title, content: 'Content' } }, author);
  const titles = (page: { bookmarks: { post: Post }[] }) =>
    page.bookmarks.map(({ post }) => post.title);

  beforeEach(async () => {
    blog = await createBlogTestingModule([BookmarksService, PostsService, UsersService]);
    bookmarks = blog.moduleRef.get(BookmarksService);
    posts = blog.moduleRef.get(PostsService);
    [author, reader] = [await blog.signUp(), await blog.signUp()];
  });

  afterEach(() => blog.close());

  it('should keep one bookmark however often it is given, and say when it changed', async () => {
    const post = await publish('Once');
    expect((await bookmarks.bookmark(post.id, reader)).changed).toBe(true);
    expect((await bookmarks.bookmark(post.id, reader)).changed).toBe(false);
    expect(await bookmarks.count(reader)).toBe(1);
    expect((await bookmarks.unbookmark(post.id, reader)).changed).toBe(true);
    const again = await bookmarks.unbookmark(post.id, reader);
    expect(again).toMatchObject({ changed: false, post: { id: post.id } });
    expect(await bookmarks.count(reader)).toBe(0);
  });

  it('should say which of some posts a user has bookmarked', async () => {
    const [a, b, c] = [await publish('A'), await publish('B'), await publish('C')];
    await bookmarks.bookmark(a.id, reader);
    await bookmarks.bookmark(c.id, author);
    expect(await bookmarks.bookmarkedBy(reader.id, [a.id, b.id, c.id])).toEqual(new Set([a.id]));
  });

  it('should page newest bookmark first, each page going on from the last one', async () => {
    for (const title of ['P1', 'P2', 'P3']) {
      await bookmarks.bookmark((await publish(title)).id, reader);
    }
    const first = await bookmarks.page(reader, 2, null);
    expect(titles(first)).toEqual(['P3', 'P2']);
    expect(first.hasNextPage).toBe(true);
    const last = first.bookmarks[1];
    const next = await bookmarks.page(reader, 2, {
      bookmarkedAt: last.bookmarkedAt,
      postId: last.post.id,
    });
    expect(titles(next)).toEqual(['P1']);
    expect(next.hasNextPage).toBe(false);
  });

  it('should leave drafts out of the page and the count', async () => {
    const [kept, hidden] = [await publish('Kept'), await publish('Hidden')];
    await bookmarks.bookmark(kept.id, reader);
    await bookmarks.bookmark(hidden.id, reader);
    await blog.dataSource.query('UPDATE posts SET published_at = NULL WHERE id = ?', [hidden.id]);
    expect(titles(await bookmarks.page(reader, 10, null))).toEqual(['Kept']);
    expect(await bookmarks.count(reader)).toBe(1);
  });

  it('should refuse an anonymous viewer with UNAUTHENTICATED', async () => {
    const post = await publish('Anyone');
    for (const refused of [
      bookmarks.bookmark(post.id, null),
      bookmarks.unbookmark(post.id, null),
      bookmarks.page(null, 10, null),
      bookmarks.count(null),
    ]) {
      expect(await refusalOf(refused)).toEqual({ code: 'UNAUTHENTICATED' });
    }
  });

  it("should refuse someone else's draft as a missing post, and the author's own as a draft", async () => {
    const draft = await posts.create(
      { input: { title: 'Draft', content: 'C', publish: false } },
      author,
    );
    expect(await refusalOf(bookmarks.bookmark(draft.id, reader))).toEqual({ code: 'NOT_FOUND' });
    expect(await refusalOf(bookmarks.bookmark(newId(), reader))).toEqual({ code: 'NOT_FOUND' });
    expect(await refusalOf(bookmarks.bookmark(draft.id, author))).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'postId',
    });
    expect(await refusalOf(bookmarks.unbookmark(draft.id, reader))).toEqual({ code: 'NOT_FOUND' });
    expect(await bookmarks.bookmarkedBy(author.id, [draft.id])).toEqual(new Set());
  });

  it('should drop the bookmarks table on the way down, and make it again on the way up', async () => {
    const migration = new CreateBookmarks1765000300000();
    const runner = blog.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await runner.hasTable('bookmarks')).toBe(false);
      await migration.up(runner);
      const table = await runner.getTable('bookmarks');
      expect(table?.primaryColumns.map((column) => column.name).sort()).toEqual([
        'post_id',
        'user_id',
      ]);
      expect(table?.foreignKeys.map((key) => key.onDelete)).toEqual(['CASCADE', 'CASCADE']);
    } finally {
      await runner.release();
    }
  });
});

describe('Bookmark cursors', () => {
  it('should read back what they carry, and refuse anything else with BAD_USER_INPUT', async () => {
    const id = newId();
    const at = new Date('2026-05-01T10:20:30.456Z');
    const cursor = Buffer.from(`bookmark:${at.getTime()}:${id.toUpperCase()}`).toString(
      'base64url',
    );
    expect(decodeBookmarkCursor(cursor)).toEqual({ bookmarkedAt: at, postId: id });
    for (const bad of ['', 'bookmark', Buffer.from(`post:1:${id}`).toString('base64url')]) {
      expect(await refusalOf(Promise.resolve().then(() => decodeBookmarkCursor(bad)))).toEqual({
        code: 'BAD_USER_INPUT',
        field: 'after',
      });
    }
  });
});
