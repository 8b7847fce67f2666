import { NotificationsResolver } from './notifications.resolver';
import { NotificationsService } from './notifications.service';
import { PublicationFanOut } from './publication-fan-out';
import { BlogFeature } from '../blog-feature';

/** Notifications: what other users did that concerns the viewer, listed and live. */
export const notificationsFeature: BlogFeature = {
  name: 'notifications',
  providers: [NotificationsService, PublicationFanOut, NotificationsResolver],
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
