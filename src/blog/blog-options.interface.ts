import type { ThrottlerStorage } from '@nestjs/throttler';
import type { PubSubEngine } from 'graphql-subscriptions';

/** At most `limit` attempts per client address in `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Settings of a BlogModule instance. */
export interface BlogModuleOptions {
  /** The HS256 key that signs and checks access tokens; at least 32 characters. */
  jwtSecret: string;
  /** Token lifetime as seconds or a duration such as `15m` or `7d`; defaults to `7d`. */
  jwtExpiresIn?: string | number;
  /**
   * Carries subscription events. Defaults to an in-process PubSub (one instance); pass
   * `createRedisPubSub(url)` when several instances serve the same clients.
   */
  pubSub?: PubSubEngine;
  /**
   * The highest estimated cost of one operation (each field 1, a list field its page size
   * times its selection); costlier operations are refused before they run. Default 20,000.
   */
  maxQueryComplexity?: number;
  /** How many `signUp` and `logIn` attempts one address may make. Default: 10 a minute. */
  authRateLimit?: RateLimit;
  /**
   * Where the attempt counters live. Defaults to process memory (one instance); pass a
   * `RedisThrottlerStorage` when several instances serve the same clients.
   */
  throttlerStorage?: ThrottlerStorage;
}
