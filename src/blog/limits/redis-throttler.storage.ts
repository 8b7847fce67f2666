import { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';

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

/**
 * Rate-limit counters in Redis, so that every instance counts the same attempts.
 * (The community Redis storage for @nestjs/throttler does not support Nest 12 yet.)
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix = 'blog:throttle:',
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2 });
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const base = `${this.prefix}throttle:${throttlerName}:${key}`;
    const [hits, window, blocked] = (await this.redis.eval(
      INCREMENT,
      2,
      `${base}:hits`,
      `${base}:blocked`,
      ttl,
      limit,
      blockDuration,
    )) as [number, number, number];
    return {
      totalHits: hits,
      timeToExpire: Math.max(0, Math.ceil(window / 1000)),
      isBlocked: blocked > 0,
      timeToBlockExpire: Math.max(0, Math.ceil(blocked / 1000)),
    };
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
