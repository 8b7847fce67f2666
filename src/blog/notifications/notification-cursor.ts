import { cursorGroups, opaqueCursor } from '../common/pagination';
import { isUuid } from '../common/uuid';

const CURSOR = /^notification:([0-9a-fA-F-]{36})$/;

/**
 * An opaque Relay cursor, base64url-encoded: `notification:<id>`. Ids are time-ordered, so the
 * id alone is the notification's place in the list, and the next page goes on after it is gone.
 */
export function encodeNotificationCursor(id: string): string {
  return opaqueCursor(`notification:${id}`);
}

/** The id in a cursor made by {@link encodeNotificationCursor}; anything else is BAD_USER_INPUT. */
export function decodeNotificationCursor(cursor: string): string {
  const [id] = cursorGroups(
    cursor,
    CURSOR,
    'after must be an endCursor of a previous page of notifications.',
    ([id]) => isUuid(id!),
  );
  return id!.toLowerCase();
}
