import type { RedisPubSub } from 'graphql-redis-subscriptions';
import { PubSub, PubSubEngine } from 'graphql-subscriptions';

import { closeRedis, connectRedis } from '../common/redis';

/** The injection token of the PubSubEngine that carries the blog's events. */
export const BLOG_PUB_SUB = Symbol('BLOG_PUB_SUB');

/** How long a PUBLISH may wait for Redis, queued while it reconnects, before it is given up. */
export const REDIS_PUBLISH_TIMEOUT_MS = 2000;

/** One process: events stay in memory. */
export function createInMemoryPubSub(): PubSubEngine {
  return new PubSub();
}

/**
 * Several instances: events go through Redis, so a subscriber connected to any instance hears
 * what every instance publishes. Close it with {@link closePubSub}.
 *
 * Every channel's name starts with `prefix` (REDIS_PREFIX in the standalone service, `blog:` by
 * default), so that deployments sharing one Redis hear only their own events: Redis does not
 * separate pub/sub by database number, so a `/1` in the URL would not.
 *
 * Both connections reconnect for as long as they live. A PUBLISH fails after one reconnection
 * attempt or {@link REDIS_PUBLISH_TIMEOUT_MS}, so that a Redis outage loses live updates only;
 * the subscriber's commands wait for Redis instead, and its channels are subscribed again when
 * it is back, so that open subscriptions resume.
 */
export function createRedisPubSub(url: string, prefix = 'blog:'): PubSubEngine {
  const { RedisPubSub } = redisPubSubModule();
  const prefixed = (trigger: string) => `${prefix}${trigger}`;
  /** RedisPubSub names subscribed channels through `triggerTransform`, published ones as given. */
  class PrefixedRedisPubSub extends RedisPubSub {
    override publish(trigger: string, payload: unknown): Promise<void> {
      return super.publish(prefixed(trigger), payload);
    }
  }
  return new PrefixedRedisPubSub({
    triggerTransform: (trigger) => prefixed(String(trigger)),
    publisher: connectRedis(url, 'event publisher', {
      maxRetriesPerRequest: 1,
      commandTimeout: REDIS_PUBLISH_TIMEOUT_MS,
    }),
    subscriber: connectRedis(url, 'event subscriber', {
      maxRetriesPerRequest: null,
      autoResubscribe: true,
    }),
  });
}

/** Closes the Redis connections of a Redis PubSub, without waiting long on a Redis that is gone. */
export async function closePubSub(pubSub: PubSubEngine): Promise<void> {
  if (pubSub instanceof PubSub || !(pubSub instanceof redisPubSubModule().RedisPubSub)) return;
  await Promise.all([closeRedis(pubSub.getPublisher()), closeRedis(pubSub.getSubscriber())]);
}

/** Required when first used, so that a service without Redis never loads it. */
function redisPubSubModule(): { RedisPubSub: typeof RedisPubSub } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('graphql-redis-subscriptions') as typeof import('graphql-redis-subscriptions');
}
