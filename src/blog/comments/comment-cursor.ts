import { CommentOrder } from './comment-status';
import type { ThreadPage } from './comments.service';
import { cursorGroups, opaqueCursor, toPage } from '../common/pagination';
import { isUuid } from '../common/uuid';

/** `comment:<id>` for the oldest and newest orders, `comment:top:<likes>:<id>` for TOP. */
const CURSOR = /^comment:(?:top:(\d{1,9}):)?([0-9a-fA-F-]{36})$/;

/** The endCursor of `comment` in a page of threads or replies in `order`. */
export function encodeCommentCursor(
  comment: { id: string; likesCount: number },
  order: CommentOrder,
): string {
  const likes = order === CommentOrder.TOP ? `top:${comment.likesCount}:` : '';
  return opaqueCursor(`comment:${likes}${comment.id}`);
}

/**
 * The page of `first` comments after the cursor `after` in `order`: BAD_USER_INPUT when the
 * cursor was not made by {@link encodeCommentCursor} for that order.
 */
export function toCommentPage(
  args: { first?: number | null; after?: string | null },
  order: CommentOrder,
): ThreadPage {
  if (!args.after) return { ...toPage({ first: args.first }), afterLikes: null };
  const [likes, id] = cursorGroups(
    args.after,
    CURSOR,
    'after must be an endCursor of a previous page in the same order.',
    ([likes, id]) => isUuid(id!) && (likes !== undefined) === (order === CommentOrder.TOP),
  );
  const page = toPage({ first: args.first, after: id });
  return { ...page, afterLikes: likes === undefined ? null : Number(likes) };
}
