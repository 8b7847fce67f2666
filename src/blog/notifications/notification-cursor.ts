import { badUserInput } from '../common/errors';
import { isUuid } from '../common/uuid';

const CURSOR = /^notification:([0-9a-fA-F-]{36})$/;

/**
 * An opaque Relay cursor, base64url-encoded: `notification:<id>`. Ids are time-ordered, so the
 * id alone is the notification's place in the list, and the next page goes on after it is gone.
 */
export function encodeNotificationCursor(id: string): string {
  return Buffer.from(`notification:${id}`).toString('base64url');
}

/** The id in a cursor made by {@link encodeNotificationCursor}; anything else is BAD_USER_INPUT. */
export function decodeNotificationCursor(cursor: string): string {
  const [, id] = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8')) ?? [];
  if (!id || !isUuid(id)) {
    throw badUserInput('after must be an endCursor of a previous page of notifications.', 'after');
  }
  return id.toLowerCase();
}
