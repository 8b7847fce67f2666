import { ModerationItem } from './moderation-queue-item.entity';
import { ReportStatus } from './reports.enums';
import { cursorGroups, opaqueCursor } from '../common/pagination';
import { isUuid } from '../common/uuid';

/** Where a page of the queue goes on: after an item, and for resolved items its resolution time. */
export interface QueueCursor {
  id: string;
  resolvedAt: Date | null;
}

/** `item:<id>` for open items, in id order. */
const OPEN = /^item:([0-9a-fA-F-]{36})$/;
/** `resolved:<resolvedAt in ms>:<id>` for resolved ones, newest resolved first. */
const RESOLVED = /^resolved:(-?\d{1,13}):([0-9a-fA-F-]{36})$/;

/** The cursor of `item` in a page of items of `status`. */
export function encodeQueueCursor(item: ModerationItem, status: ReportStatus): string {
  return status === ReportStatus.OPEN || item.resolvedAt === null
    ? opaqueCursor(`item:${item.id}`)
    : opaqueCursor(`resolved:${item.resolvedAt.getTime()}:${item.id}`);
}

/** The cursor of a page of `status`; BAD_USER_INPUT for anything else, a cursor of the other status included. */
export function decodeQueueCursor(cursor: string, status: ReportStatus): QueueCursor {
  const message = 'after must be an endCursor of a previous page of the same status.';
  if (status === ReportStatus.OPEN) {
    const [id] = cursorGroups(cursor, OPEN, message, ([id]) => isUuid(id!));
    return { id: id!.toLowerCase(), resolvedAt: null };
  }
  const [at, id] = cursorGroups(cursor, RESOLVED, message, ([, id]) => isUuid(id!));
  return { id: id!.toLowerCase(), resolvedAt: new Date(Number(at)) };
}
