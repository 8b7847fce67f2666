import { Logger } from '@nestjs/common';
import type { Cluster, Redis, RedisOptions } from 'ioredis';

const logger = new Logger('Redis');

/**
 * An ioredis connection that reconnects for as long as it lives and logs each outage once,
 * when it starts and when it ends, instead of an unhandled error event on every attempt.
 */
export function connectRedis(url: string, role: string, options: RedisOptions): Redis {
  // Required here, not imported, so that a service without Redis never loads the client.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ioredis = require('ioredis') as typeof import('ioredis');
  const redis = new ioredis.Redis(url, options);
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.error(`The ${role} connection to Redis failed; reconnecting: ${error.message}`);
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger.log(`The ${role} connection to Redis is back.`);
  });
  return redis;
}

/** QUIT, but without waiting more than `ms` on a Redis that is gone: then the socket is dropped. */
export async function closeRedis(redis: Redis | Cluster, ms = 1000): Promise<void> {
  if (redis.status === 'end') return;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([redis.quit().catch(() => undefined), bound]);
  clearTimeout(timer);
  redis.disconnect();
}
