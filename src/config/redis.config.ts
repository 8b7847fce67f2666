import { registerAs } from '@nestjs/config';

import { InvalidEnvironmentError, readOptionalString, readString } from './env';

export interface RedisConfig {
  /** Redis for pub/sub (and shared state) across instances; unset means one process. */
  url: string | null;
  /** Prefix of the keys this service writes, so that several services can share one Redis. */
  prefix: string;
}

export function loadRedisConfig(env: NodeJS.ProcessEnv = process.env): RedisConfig {
  const url = readOptionalString(env, 'REDIS_URL') ?? null;
  if (url !== null && !/^rediss?:\/\//.test(url)) {
    throw new InvalidEnvironmentError('REDIS_URL', 'expected redis://host:port or rediss://...');
  }
  return { url, prefix: readString(env, 'REDIS_PREFIX', 'blog:') };
}

export const redisConfig = registerAs('redis', () => loadRedisConfig());
