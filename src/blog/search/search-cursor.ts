import { badUserInput } from '../common/errors';
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
  const text = `search:${cursor.rank}:${cursor.publishedAt.getTime()}:${cursor.id}`;
  return Buffer.from(text).toString('base64url');
}

/** The cursor made by {@link encodeSearchCursor}; anything else is BAD_USER_INPUT. */
export function decodeSearchCursor(cursor: string): SearchCursor {
  const [, rank, at, id] = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8')) ?? [];
  if (!rank || !at || !id || !isUuid(id) || !Number.isFinite(Number(rank))) {
    throw badUserInput('after must be an endCursor of a previous page of this search.', 'after');
  }
  return { rank: Number(rank), publishedAt: new Date(Number(at)), id: id.toLowerCase() };
}
