import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { Redis } from 'ioredis';

import { redisConfig } from '../config';

/**
 * Pings the Redis of `REDIS_URL` through a connection of its own, so that a probe never queues
 * behind the blog's pub/sub or rate-limit traffic. The connection opens on the first probe and
 * keeps reconnecting in the background while Redis is down; each ping is bounded by the check's
 * timeout.
 */
@Injectable()
export class RedisHealthIndicator implements OnApplicationShutdown {
  private client?: Redis;

  constructor(
    @Inject(redisConfig.KEY) private readonly config: ConfigType<typeof redisConfig>,
    private readonly health: HealthIndicatorService,
  ) {}

  /** False without `REDIS_URL`: the service then uses no Redis, and readiness does not check it. */
  get configured(): boolean {
    return this.config.url !== null;
  }

  pingCheck(key: string, timeoutMs: number) {
    return this.health
      .check(key)
      .attempt(async () => {
        await this.connection(timeoutMs).ping();
      })
      .withTimeout(timeoutMs);
  }

  onApplicationShutdown(): void {
    this.client?.disconnect();
  }

  private connection(timeoutMs: number): Redis {
    if (this.client) return this.client;
    // Required here, not imported: without REDIS_URL no probe asks for it, and it is never loaded.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ioredis = require('ioredis') as typeof import('ioredis');
    this.client = new ioredis.Redis(this.config.url as string, {
      lazyConnect: true,
      connectTimeout: timeoutMs,
      maxRetriesPerRequest: 1,
    });
    // Connection errors are what the probe reports; without a listener ioredis prints each one.
    this.client.on('error', () => undefined);
    return this.client;
  }
}
