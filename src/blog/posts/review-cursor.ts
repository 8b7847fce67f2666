import { cursorGroups, opaqueCursor } from '../common/pagination';
import { isUuid } from '../common/uuid';

const REVIEW_CURSOR = /^review:(\d{1,15}):(.+)$/;

/** The cursor of a post in `postsAwaitingReview`: when it was submitted, and its id, opaque. */
export function encodeReviewCursor(post: { id: string; reviewRequestedAt: Date | null }): string {
  return opaqueCursor(`review:${post.reviewRequestedAt?.getTime() ?? 0}:${post.id}`);
}

/** The place an {@link encodeReviewCursor} names; BAD_USER_INPUT for anything else. */
export function decodeReviewCursor(cursor: string): { requestedAt: Date; id: string } {
  const [at, id] = cursorGroups(
    cursor,
    REVIEW_CURSOR,
    'after must be an endCursor of a previous page of postsAwaitingReview.',
    ([, id]) => isUuid(id!),
  );
  return { requestedAt: new Date(Number(at)), id: id!.toLowerCase() };
}
