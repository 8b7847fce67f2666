import { NotificationsResolver } from './notifications.resolver';
import { NotificationsService } from './notifications.service';
import { BlogFeature } from '../blog-feature';

/** Notifications: what other users did that concerns the viewer, listed and live. */
export const notificationsFeature: BlogFeature = {
  name: 'notifications',
  providers: [NotificationsService, NotificationsResolver],
  schema: {
    types: ['Notification', 'NotificationKind', 'NotificationConnection', 'NotificationEdge'],
    fields: [
      'Query.notifications',
      'Query.unreadNotificationsCount',
      'Mutation.markNotificationsRead',
      'Subscription.notificationAdded',
    ],
  },
};
