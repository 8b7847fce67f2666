import { PubSub, PubSubEngine } from 'graphql-subscriptions';
import { RedisPubSub } from 'graphql-redis-subscriptions';
import Redis from 'ioredis';

/** The injection token of the PubSubEngine that carries the blog's events. */
export const BLOG_PUB_SUB = Symbol('BLOG_PUB_SUB');

/** One process: events stay in memory. */
export function createInMemoryPubSub(): PubSubEngine {
  return new PubSub();
}

/**
 * Several instances: events go through Redis, so a subscriber connected to any instance hears
 * what every instance publishes. Close it with {@link closePubSub}.
 */
export function createRedisPubSub(url: string): PubSubEngine {
  const options = { maxRetriesPerRequest: null, lazyConnect: false } as const;
  return new RedisPubSub({
    publisher: new Redis(url, options),
    subscriber: new Redis(url, options),
  });
}

export async function closePubSub(pubSub: PubSubEngine): Promise<void> {
  if (pubSub instanceof RedisPubSub) await pubSub.close();
}
