import { Inject, Injectable, Logger } from '@nestjs/common';
import { DocumentNode, getOperationAST, GraphQLSchema } from 'graphql';
import { collectFields } from 'graphql/execution/collectFields';
import Redis from 'ioredis';

import { BlogModuleOptions, RateLimit } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { WriteAllowance, WriteRateLimitStorage } from './write-rate-limit-storage';
import { messageOf, serviceUnavailable, tooManyRequests, withStatus } from '../common/errors';
import { closeRedis, connectRedis } from '../common/redis';
import { fragmentsOf } from '../common/selection';
import { coerceVariableValues } from '../common/variable-values';

/** The default: 120 mutation fields a minute per signed-in user. */
export const DEFAULT_WRITE_RATE_LIMIT: RateLimit = { limit: 120, windowMs: 60_000 };

/** The default: accounts younger than 24 hours get a tenth of the write allowance. */
export const DEFAULT_NEW_ACCOUNT_HOURS = 24;

/** The share of the write allowance that a new account gets (see newAccountLimit). */
const NEW_ACCOUNT_SHARE = 10;

/**
 * A new account's writes per window: a tenth of `limit`, rounded down, and at least one, so
 * that a small allowance does not shut new accounts out altogether.
 */
export function newAccountLimit(limit: number): number {
  return Math.max(1, Math.floor(limit / NEW_ACCOUNT_SHARE));
}

/** The account whose writes are counted: its id, and when it was made. */
export interface Writer {
  id: string;
  createdAt: Date;
}

/** How long counting one request's writes may wait for Redis, queued while it reconnects. */
export const REDIS_WRITE_LIMIT_TIMEOUT_MS = 1000;

/** Fixed windows in process memory; expired windows are swept as the map grows. */
export class InMemoryWriteRateLimitStorage implements WriteRateLimitStorage {
  private readonly windows = new Map<string, { used: number; endsAt: number }>();

  async consume(
    key: string,
    units: number,
    limit: number,
    windowMs: number,
  ): Promise<WriteAllowance> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (units <= 0) {
      // A look that takes nothing starts no window.
      const used = window && window.endsAt > now ? window.used : 0;
      return {
        allowed: used <= limit,
        retryAfterMs: window ? Math.max(0, window.endsAt - now) : 0,
      };
    }
    if (!window || window.endsAt <= now) {
      if (this.windows.size >= 10_000) this.sweep(now);
      window = { used: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    const allowed = window.used + units <= limit;
    if (allowed) window.used += units;
    return { allowed, retryAfterMs: window.endsAt - now };
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}

// One round trip: take all the units if they fit, none otherwise; the first take starts the window.
// Zero units only look, and write nothing.
const CONSUME = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local units = tonumber(ARGV[1])
if units <= 0 then
  return { used <= tonumber(ARGV[2]) and 1 or 0, math.max(redis.call('PTTL', KEYS[1]), 0) }
end
if used + units > tonumber(ARGV[2]) then
  local left = redis.call('PTTL', KEYS[1])
  if left < 0 then left = tonumber(ARGV[3]) end
  return { 0, left }
end
redis.call('INCRBY', KEYS[1], units)
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  left = tonumber(ARGV[3])
end
return { 1, left }
`;

/** Write counters in Redis, so that every instance counts a user's writes against one limit. */
export class RedisWriteRateLimitStorage implements WriteRateLimitStorage {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix = 'blog:',
  ) {
    this.redis = connectRedis(url, 'write limiter', {
      maxRetriesPerRequest: 1,
      commandTimeout: REDIS_WRITE_LIMIT_TIMEOUT_MS,
    });
  }

  async consume(
    key: string,
    units: number,
    limit: number,
    windowMs: number,
  ): Promise<WriteAllowance> {
    const [allowed, left] = (await this.redis.eval(
      CONSUME,
      1,
      `${this.prefix}writes:${key}`,
      units,
      limit,
      windowMs,
    )) as [number, number];
    return { allowed: allowed === 1, retryAfterMs: left };
  }

  /** Closes the connection, without waiting long on a Redis that is gone. */
  async close(): Promise<void> {
    await closeRedis(this.redis);
  }
}

/**
 * The writes an operation asks for: its root mutation fields as execution will run them
 * (aliases each count, fragments are followed, `@skip`/`@include` apply, `__typename` is free).
 * Zero for queries and subscriptions.
 */
export function countWrites(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  request?: object,
): number {
  const operation = getOperationAST(document, operationName);
  const mutationType = schema.getMutationType();
  if (operation?.operation !== 'mutation' || !mutationType) return 0;
  const fragments = fragmentsOf(document);
  const { coerced = {} } = coerceVariableValues(schema, operation, variables, request);
  const fields = collectFields(schema, fragments, coerced, mutationType, operation.selectionSet);
  return [...fields.values()].filter((nodes) => !nodes[0].name.value.startsWith('__')).length;
}

/**
 * Limits writes per signed-in user: every root mutation field of a request counts, and the
 * request's fields are taken all at once before any of them runs, so a refused request writes
 * nothing. An account younger than `newAccountHours` gets a tenth of the allowance, on the same
 * counter, so that it keeps what it has used once it comes of age. The refusal is
 * TOO_MANY_REQUESTS with `retryAfter` (seconds); when the counters cannot be reached (Redis
 * down), writes are refused with SERVICE_UNAVAILABLE, never let through.
 */
@Injectable()
export class WriteRateLimiter {
  private readonly limit: RateLimit | false;
  private readonly newAccountMs: number;
  private readonly storage: WriteRateLimitStorage;
  private readonly logger = new Logger('WriteRateLimiter');

  constructor(@Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions) {
    this.limit = options.writeRateLimit ?? DEFAULT_WRITE_RATE_LIMIT;
    this.newAccountMs = (options.newAccountHours ?? DEFAULT_NEW_ACCOUNT_HOURS) * 3_600_000;
    this.storage = options.writeRateLimitStorage ?? new InMemoryWriteRateLimitStorage();
  }

  get enabled(): boolean {
    return this.limit !== false && this.limit.limit > 0;
  }

  /** Takes `units` writes from `writer`'s allowance, or refuses the whole request. */
  async consume(writer: Writer, units: number): Promise<void> {
    if (this.limit === false || this.limit.limit <= 0 || units <= 0) return;
    const { windowMs } = this.limit;
    const isNew = Date.now() - writer.createdAt.getTime() < this.newAccountMs;
    const limit = isNew ? newAccountLimit(this.limit.limit) : this.limit.limit;
    let allowance: WriteAllowance;
    try {
      allowance = await this.storage.consume(`user:${writer.id}`, units, limit, windowMs);
    } catch (error) {
      this.logger.warn(`Refused writes that could not be counted: ${messageOf(error)}`);
      throw withStatus(serviceUnavailable('Writes are unavailable for now; try again soon.'), 503);
    }
    if (allowance.allowed) return;
    const retryAfter = Math.max(1, Math.ceil(allowance.retryAfterMs / 1000));
    throw withStatus(
      tooManyRequests(
        `Too many writes: this request asks for ${units} of at most ${limit} per ${windowMs / 1000} s${isNew ? ` (accounts younger than ${this.newAccountMs / 3_600_000} hours get a tenth of the allowance)` : ''}; try again in ${retryAfter} s.`,
        retryAfter,
      ),
      429,
    );
  }
}
