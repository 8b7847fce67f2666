/** What a consumption says: whether it fitted, and when the window has room again. */
export interface WriteAllowance {
  allowed: boolean;
  /** Milliseconds until the current window ends. */
  retryAfterMs: number;
}

/**
 * Where write counters, and the log-in counters, live: process memory (one instance) or Redis
 * (several).
 */
export interface WriteRateLimitStorage {
  /**
   * Consumes `units` of `key`'s window of `windowMs` if they all fit under `limit`, and nothing
   * otherwise, atomically. Zero units take nothing and should start no window: the answer says
   * whether what is used is at most `limit` (the log-in limits look so). A storage that cannot
   * answer rejects: the caller refuses the writes.
   */
  consume(key: string, units: number, limit: number, windowMs: number): Promise<WriteAllowance>;
  close?(): Promise<void>;
}
