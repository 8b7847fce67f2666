import { cursorGroups, opaqueCursor } from '../common/pagination';
import { isUuid } from '../common/uuid';

/** Where a page of bookmarks ends: when the last post on it was bookmarked, and its id. */
export interface BookmarkCursor {
  bookmarkedAt: Date;
  postId: string;
}

/** `bookmark:<bookmarkedAt in ms since 1970>:<post id>`; 13 digits reach the year 2286. */
const CURSOR = /^bookmark:(\d{1,13}):([0-9a-fA-F-]{36})$/;

/**
 * An opaque Relay cursor, base64url-encoded. It carries the bookmark's place in the order, so the
 * next page needs no lookup and goes on after that bookmark is removed.
 */
export function encodeBookmarkCursor(cursor: BookmarkCursor): string {
  return opaqueCursor(`bookmark:${cursor.bookmarkedAt.getTime()}:${cursor.postId}`);
}

/** The cursor made by {@link encodeBookmarkCursor}; anything else is BAD_USER_INPUT. */
export function decodeBookmarkCursor(cursor: string): BookmarkCursor {
  const [at, id] = cursorGroups(
    cursor,
    CURSOR,
    'after must be an endCursor of a previous page of bookmarks.',
    ([, id]) => isUuid(id!),
  );
  return { bookmarkedAt: new Date(Number(at)), postId: id!.toLowerCase() };
}
