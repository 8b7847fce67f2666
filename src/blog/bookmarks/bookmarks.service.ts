import { Injectable } from '@nestjs/common';

import { BookmarkCursor } from './bookmark-cursor';
import { BookmarkedPostRow, bookmarksSql } from './bookmarks.sql';
import { notFound, unauthenticated } from '../common/errors';
import { PreparedStatements, Sql, toDate } from '../common/sql';
import { Post } from '../posts/post.entity';
import { toPost } from '../posts/post.rows';
import { PostsService } from '../posts/posts.service';
import { Viewer } from '../users/viewer';

export interface BookmarkChange {
  post: Post;
  /** False when the bookmark was already there (or already gone). */
  changed: boolean;
}

/** A post on a page of bookmarks, with when it was bookmarked (its place in the order). */
export interface BookmarkedPost {
  post: Post;
  bookmarkedAt: Date;
}

export interface BookmarksPage {
  bookmarks: BookmarkedPost[];
  hasNextPage: boolean;
}

const toBookmarked = (row: BookmarkedPostRow): BookmarkedPost => ({
  post: toPost(row),
  bookmarkedAt: toDate(row.bookmarkedAt) as Date,
});

/** Bookmarks: a signed-in user's private list of published posts to read later. */
@Injectable()
export class BookmarksService {
  private readonly statements: PreparedStatements<typeof bookmarksSql>;

  constructor(
    private readonly posts: PostsService,
    private readonly sql: Sql,
  ) {
    this.statements = sql.prepare(bookmarksSql);
  }

  /**
   * Bookmarks a published post; bookmarking twice leaves one bookmark, with its first time.
   * NOT_FOUND for a post that is missing or someone else's draft, alike, and BAD_USER_INPUT for
   * the viewer's own draft, as likePost answers.
   */
  async bookmark(postId: string, viewer: Viewer): Promise<BookmarkChange> {
    if (!viewer) throw unauthenticated('You must be signed in to bookmark a post.');
    const post = await this.posts.findPublished(postId, viewer);
    const bookmark = { userId: viewer.id, postId: post.id, createdAt: new Date() };
    const changed = (await this.sql.run(this.statements.bookmark, bookmark)) > 0;
    return { post, changed };
  }

  /**
   * Removes a bookmark; removing one that is not there answers the post all the same. A post the
   * viewer may not see (missing, or someone else's draft) is NOT_FOUND, and nothing changes.
   */
  async unbookmark(postId: string, viewer: Viewer): Promise<BookmarkChange> {
    if (!viewer) throw unauthenticated('You must be signed in to remove a bookmark.');
    const post = await this.posts.findVisible(postId, viewer);
    if (!post) throw notFound('Post');
    const bookmark = { userId: viewer.id, postId: post.id };
    const changed = (await this.sql.run(this.statements.unbookmark, bookmark)) > 0;
    return { post, changed };
  }

  /** The posts among `postIds` that `userId` has bookmarked, in one statement. */
  async bookmarkedBy(userId: string, postIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.sql.all(this.statements.bookmarkedBy, { userId, postIds });
    return new Set(rows.map((row) => row.key));
  }

  /**
   * A page of the viewer's bookmarks of published posts, newest bookmark first, plus whether
   * more follow.
   */
  async page(viewer: Viewer, first: number, after: BookmarkCursor | null): Promise<BookmarksPage> {
    if (!viewer) throw unauthenticated('You must be signed in to see your bookmarks.');
    const parameters = { userId: viewer.id, first: first + 1 };
    const rows = after
      ? await this.sql.all(this.statements.pageAfter, {
          ...parameters,
          afterCreatedAt: after.bookmarkedAt,
          afterPostId: after.postId,
        })
      : await this.sql.all(this.statements.page, parameters);
    const bookmarks = rows.slice(0, first).map(toBookmarked);
    return { bookmarks, hasNextPage: rows.length > first };
  }

  /** How many published posts the viewer has bookmarked: every page of the list together. */
  async count(viewer: Viewer): Promise<number> {
    if (!viewer) throw unauthenticated('You must be signed in to see your bookmarks.');
    const row = await this.sql.one(this.statements.count, { userId: viewer.id });
    return Number(row?.count ?? 0);
  }
}
