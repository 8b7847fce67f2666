import { badUserInput } from '../common/errors';

/** Where a page of popular tags ends: the last tag's count of published posts, and its slug. */
export interface TagCursor {
  count: number;
  slug: string;
}

const CURSOR = /^tag:(\d{1,12}):(.{1,256})$/su;

/** An opaque Relay cursor for popularTags: `tag:<count>:<slug>`, base64url-encoded. */
export function encodeTagCursor({ count, slug }: TagCursor): string {
  return Buffer.from(`tag:${count}:${slug}`).toString('base64url');
}

/** The cursor made by {@link encodeTagCursor}; anything else is BAD_USER_INPUT. */
export function decodeTagCursor(cursor: string): TagCursor {
  const [, count, slug] = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8')) ?? [];
  if (!slug) throw badUserInput('after must be an endCursor of a previous page.', 'after');
  return { count: Number(count), slug };
}
