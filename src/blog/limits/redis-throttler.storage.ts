import { Logger } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';

import { messageOf, serviceUnavailable } from '../common/errors';
import { closeRedis, connectRedis } from '../common/redis';

interface ThrottlerStorageRecord {
  totalHits: number;
  timeToExpire: number;
  isBlocked: boolean;
  timeToBlockExpire: number;
}

// One round trip: count the hit, start the window on the first one, block past the limit.
const INCREMENT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local window = redis.call('PTTL', KEYS[1])
local blocked = redis.call('PTTL', KEYS[2])
if blocked <= 0 and hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  blocked = tonumber(ARGV[3])
end
return { hits, window, blocked }
`;

/** How long counting one attempt may wait for Redis, queued while it reconnects. */
export const REDIS_THROTTLER_TIMEOUT_MS = 1000;

/**
 * Rate-limit counters in Redis, so that every instance counts the same attempts.
 * (The community Redis storage for @nestjs/throttler does not support Nest 12 yet.)
 * It fails closed: while Redis cannot count an attempt, the attempt is refused with
 * SERVICE_UNAVAILABLE within {@link REDIS_THROTTLER_TIMEOUT_MS}, rather than let through.
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly redis: Redis;
  private readonly logger = new Logger('RedisThrottlerStorage');

  constructor(
    url: string,
    private readonly prefix = 'blog:throttle:',
  ) {
    this.redis = connectRedis(url, 'rate limiter', {
      maxRetriesPerRequest: 1,
      commandTimeout: REDIS_THROTTLER_TIMEOUT_MS,
    });
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const base = `${this.prefix}throttle:${throttlerName}:${key}`;
    let counted: [number, number, number];
    try {
      counted = (await this.redis.eval(
        INCREMENT,
        2,
        `${base}:hits`,
        `${base}:blocked`,
        ttl,
        limit,
        blockDuration,
      )) as [number, number, number];
    } catch (error) {
      this.logger.warn(`Refused an attempt that could not be counted: ${messageOf(error)}`);
      throw serviceUnavailable(
        'Signing up and checking passwords (logging in, changing the password, deleting the account) are unavailable for now; try again soon.',
      );
    }
    const [hits, window, blocked] = counted;
    return {
      totalHits: hits,
      timeToExpire: Math.max(0, Math.ceil(window / 1000)),
      isBlocked: blocked > 0,
      timeToBlockExpire: Math.max(0, Math.ceil(blocked / 1000)),
    };
  }

  /** Closes the connection, without waiting long on a Redis that is gone. */
  async close(): Promise<void> {
    await closeRedis(this.redis);
  }
}
