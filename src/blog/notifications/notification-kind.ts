import { registerEnumType } from '@nestjs/graphql';

/** What a notification tells its recipient; stored as its name. */
export enum NotificationKind {
  FOLLOWED = 'FOLLOWED',
  POST_LIKED = 'POST_LIKED',
  POST_COMMENTED = 'POST_COMMENTED',
  FOLLOWEE_PUBLISHED = 'FOLLOWEE_PUBLISHED',
  COMMENT_REPLIED = 'COMMENT_REPLIED',
  COMMENT_LIKED = 'COMMENT_LIKED',
  WEBHOOK_DISABLED = 'WEBHOOK_DISABLED',
}

registerEnumType(NotificationKind, {
  name: 'NotificationKind',
  description: 'What happened: to the recipient, or to one of their posts.',
  valuesMap: {
    FOLLOWED: { description: 'The actor followed the recipient.' },
    POST_LIKED: { description: "The actor liked the recipient's post." },
    POST_COMMENTED: { description: "The actor commented on the recipient's post." },
    FOLLOWEE_PUBLISHED: {
      description: 'The actor, whom the recipient follows, published the post.',
    },
    COMMENT_REPLIED: { description: "The actor replied to the recipient's comment (`comment`)." },
    COMMENT_LIKED: { description: "The actor liked the recipient's comment (`comment`)." },
    WEBHOOK_DISABLED: {
      description:
        'To every admin: a webhook was disabled after WEBHOOK_DISABLE_AFTER events in a row failed (see `webhooks`). The actor is the admin who created it, or the recipient once that account is gone.',
    },
  },
});
