import { statement } from '../common/sql';
import { postColumns, PostRow } from '../posts/post.rows';

/** A page of a user's bookmarks: its size, and the bookmark it continues after. */
export interface BookmarkPageParameters {
  userId: string;
  first: number;
  afterCreatedAt?: Date;
  afterPostId?: string;
}

/** A bookmarked post, with when it was bookmarked: the order of the list and its cursor. */
export type BookmarkedPostRow = PostRow & { bookmarkedAt: Date | string };

/**
 * Only bookmarks of posts that are published now: a post that has become a draft leaves the
 * list (and its count) while it stays one; a deleted post's bookmarks go by the foreign key.
 */
const OF_PUBLISHED =
  'FROM bookmarks b JOIN posts p ON p.id = b.post_id ' +
  'WHERE b.user_id = :userId AND p.published_at IS NOT NULL';

/** Newest bookmark first, read along the (user, created_at, post) index. */
const page = (after: boolean) =>
  statement<BookmarkPageParameters, BookmarkedPostRow>(
    `SELECT ${postColumns('p')}, b.created_at AS "bookmarkedAt" ${OF_PUBLISHED}` +
      (after ? ' AND (b.created_at, b.post_id) < (:afterCreatedAt, :afterPostId)' : '') +
      ' ORDER BY b.created_at DESC, b.post_id DESC LIMIT :first',
  );

/** The statements of bookmarks; a bookmark is a (user, post) row, so bookmarking twice leaves one. */
export const bookmarksSql = {
  bookmark: statement<{ userId: string; postId: string; createdAt: Date }>(
    'INSERT INTO bookmarks (user_id, post_id, created_at) VALUES (:userId, :postId, :createdAt) ' +
      'ON CONFLICT DO NOTHING',
  ),
  unbookmark: statement<{ userId: string; postId: string }>(
    'DELETE FROM bookmarks WHERE user_id = :userId AND post_id = :postId',
  ),
  bookmarkedBy: statement<{ userId: string; postIds: readonly string[] }, { key: string }>(
    'SELECT b.post_id AS key FROM bookmarks b WHERE b.user_id = :userId AND b.post_id IN (:...postIds)',
  ),
  page: page(false),
  pageAfter: page(true),
  count: statement<{ userId: string }, { count: string | number }>(
    `SELECT COUNT(*) AS count ${OF_PUBLISHED}`,
  ),
};
