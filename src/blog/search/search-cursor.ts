import { cursorGroups, opaqueCursor } from '../common/pagination';
import { isUuid } from '../common/uuid';

/** Where a page of search results ends: the last post's rank, publishedAt and id. */
export interface SearchCursor {
  rank: number;
  publishedAt: Date;
  id: string;
}

/** `search:<rank>:<publishedAt in ms since 1970>:<id>`; the rank as JS prints a number. */
const CURSOR = /^search:(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?):(\d{1,13}):([0-9a-fA-F-]{36})$/;

/**
 * An opaque Relay cursor, base64url-encoded. It carries the post's place in the order (the rank
 * exactly as the database computed it), so the next page goes on right after it.
 */
export function encodeSearchCursor(cursor: SearchCursor): string {
  return opaqueCursor(`search:${cursor.rank}:${cursor.publishedAt.getTime()}:${cursor.id}`);
}

/** The cursor made by {@link encodeSearchCursor}; anything else is BAD_USER_INPUT. */
export function decodeSearchCursor(cursor: string): SearchCursor {
  const [rank, at, id] = cursorGroups(
    cursor,
    CURSOR,
    'after must be an endCursor of a previous page of this search.',
    ([rank, , id]) => isUuid(id!) && Number.isFinite(Number(rank)),
  );
  return { rank: Number(rank), publishedAt: new Date(Number(at)), id: id!.toLowerCase() };
}
