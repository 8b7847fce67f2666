import { cursorGroups, opaqueCursor } from '../common/pagination';
import { isUuid } from '../common/uuid';

const SCHEDULED_CURSOR = /^scheduled:(\d{1,15}):(.+)$/;

/** The cursor of a scheduled post in `myScheduledPosts`: its time and id, opaque. */
export function encodeScheduledCursor(post: { id: string; scheduledAt: Date | null }): string {
  return opaqueCursor(`scheduled:${post.scheduledAt?.getTime() ?? 0}:${post.id}`);
}

/** The place an {@link encodeScheduledCursor} names; BAD_USER_INPUT for anything else. */
export function decodeScheduledCursor(cursor: string): { scheduledAt: Date; id: string } {
  const [at, id] = cursorGroups(
    cursor,
    SCHEDULED_CURSOR,
    'after must be an endCursor of a previous page of myScheduledPosts.',
    ([, id]) => isUuid(id!),
  );
  return { scheduledAt: new Date(Number(at)), id: id!.toLowerCase() };
}
