import { NotificationKind } from './notification-kind';
import { Notification } from './notification.entity';
import { NotificationRow } from './notifications.sql';
import { toDate } from '../common/sql';

export function toNotification(row: NotificationRow): Notification {
  const readAt = toDate(row.readAt);
  return Object.assign(new Notification(), {
    id: row.id,
    recipientId: row.recipientId,
    actorId: row.actorId,
    kind: row.kind as NotificationKind,
    postId: row.postId,
    commentId: row.commentId ?? null,
    createdAt: toDate(row.createdAt),
    readAt,
    read: readAt !== null,
  });
}
