import { registerAs } from '@nestjs/config';

import { InvalidEnvironmentError, readOptionalString, readString } from './env';
import { SETTINGS } from './settings.schema';

export interface RedisConfig {
  /** Redis for pub/sub (and shared state) across instances; unset means one process. */
  url: string | null;
  /** Prefix of the keys this service writes, so that several services can share one Redis. */
  prefix: string;
}

export function loadRedisConfig(env: NodeJS.ProcessEnv = process.env): RedisConfig {
  const url = readOptionalString(env, SETTINGS.REDIS_URL) ?? null;
  if (url !== null) {
    const problem = redisUrlProblem(url);
    if (problem) {
      throw new InvalidEnvironmentError(
        'REDIS_URL',
        `${problem}; expected redis://host:6379 or rediss://user:password@host:6380/0`,
      );
    }
  }
  return { url, prefix: readString(env, SETTINGS.REDIS_PREFIX) };
}

/** Why ioredis could not use `url`, or null; the URL is never quoted, as it may hold a password. */
function redisUrlProblem(url: string): string | null {
  if (!/^rediss?:\/\//.test(url)) return 'the URL does not start with redis:// or rediss://';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'the URL does not parse';
  }
  if (parsed.hostname === '') return 'the URL names no host';
  if (!/^\/?\d*$/.test(parsed.pathname)) return 'the database after the host must be a number';
  return null;
}

export const redisConfig = registerAs('redis', () => loadRedisConfig());
