import DataLoader from 'dataloader';

import { Notification } from './notification.entity';
import { NotificationsService } from './notifications.service';
import { BlogLoaders } from '../blog-loaders';
import { byKeys } from '../common/loaders';

/** Notifications by id, of posts that are not drafts now, in one statement per batch. */
export function notificationById(
  loaders: BlogLoaders,
  notifications: NotificationsService,
): DataLoader<string, Notification | null> {
  return loaders.featureLoader(
    'notificationById',
    () =>
      new DataLoader<string, Notification | null>(async (ids) =>
        byKeys(ids, await notifications.findByIds(ids), (notification) => notification.id),
      ),
  );
}

/**
 * The notification a publication raised for each recipient asked for (null for those who do not
 * follow its author). The subscribers of one event ask before the event loop's next turn, so a
 * slice of them costs one statement.
 */
export function notificationOfPublication(
  loaders: BlogLoaders,
  notifications: NotificationsService,
  publication: { actorId: string; postId: string },
): DataLoader<string, Notification | null> {
  return loaders.featureLoader(
    `notificationOfPublication:${publication.postId}`,
    () =>
      new DataLoader<string, Notification | null>(
        async (recipientIds) =>
          byKeys(
            recipientIds,
            await notifications.findOfPublication(publication, recipientIds),
            (notification) => notification.recipientId,
          ),
        { batchScheduleFn: (run) => setImmediate(run) },
      ),
  );
}
