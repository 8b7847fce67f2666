import { cursorGroups, opaqueCursor } from '../common/pagination';

/** Where a page of popular tags ends: the last tag's count of published posts, and its slug. */
export interface TagCursor {
  count: number;
  slug: string;
}

const CURSOR = /^tag:(\d{1,12}):(.{1,256})$/su;

/** An opaque Relay cursor for popularTags: `tag:<count>:<slug>`, base64url-encoded. */
export function encodeTagCursor({ count, slug }: TagCursor): string {
  return opaqueCursor(`tag:${count}:${slug}`);
}

/** The cursor made by {@link encodeTagCursor}; anything else is BAD_USER_INPUT. */
export function decodeTagCursor(cursor: string): TagCursor {
  const [count, slug] = cursorGroups(
    cursor,
    CURSOR,
    'after must be an endCursor of a previous page.',
  );
  return { count: Number(count), slug: slug! };
}
