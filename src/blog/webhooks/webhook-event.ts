import { registerEnumType } from '@nestjs/graphql';

/** What a webhook delivery tells of; stored as its name. */
export enum WebhookEvent {
  POST_PUBLISHED = 'POST_PUBLISHED',
  POST_UPDATED = 'POST_UPDATED',
  POST_UNPUBLISHED = 'POST_UNPUBLISHED',
  POST_DELETED = 'POST_DELETED',
  POST_SCHEDULED = 'POST_SCHEDULED',
  COMMENT_CREATED = 'COMMENT_CREATED',
  USER_CREATED = 'USER_CREATED',
  PING = 'PING',
}

/** The `type` of each event's payload, in the Standard Webhooks style (`post.published`). */
export const EVENT_TYPES: Readonly<Record<WebhookEvent, string>> = {
  POST_PUBLISHED: 'post.published',
  POST_UPDATED: 'post.updated',
  POST_UNPUBLISHED: 'post.unpublished',
  POST_DELETED: 'post.deleted',
  POST_SCHEDULED: 'post.scheduled',
  COMMENT_CREATED: 'comment.created',
  USER_CREATED: 'user.created',
  PING: 'ping',
};

/** The events a webhook may subscribe to: all but PING, which `testWebhook` sends on demand. */
export const SUBSCRIBABLE_EVENTS: readonly WebhookEvent[] = Object.values(WebhookEvent).filter(
  (event) => event !== WebhookEvent.PING,
);

registerEnumType(WebhookEvent, {
  name: 'WebhookEvent',
  description:
    'What a webhook is told of. Each delivery is a JSON document `{ "type", "version", "timestamp", "data" }`, signed to the Standard Webhooks specification.',
  valuesMap: {
    POST_PUBLISHED: {
      description:
        '`post.published`: a post was published (by publishPost, a createPost that publishes at once, or its schedule).',
    },
    POST_UPDATED: { description: '`post.updated`: a published post was edited.' },
    POST_UNPUBLISHED: {
      description: '`post.unpublished`: a published post was taken back to a draft.',
    },
    POST_DELETED: { description: '`post.deleted`: a published or scheduled post was deleted.' },
    POST_SCHEDULED: {
      description:
        '`post.scheduled`: a post was scheduled to publish itself (schedulePost, or createPost with publishAt).',
    },
    COMMENT_CREATED: {
      description: '`comment.created`: a comment was published (a comment held for review is not).',
    },
    USER_CREATED: { description: '`user.created`: an account was created.' },
    PING: { description: '`ping`: sent by testWebhook alone; not a subscription.' },
  },
});
