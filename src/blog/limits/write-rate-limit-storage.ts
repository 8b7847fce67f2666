/** What a consumption says: whether it fitted, and when the window has room again. */
export interface WriteAllowance {
  allowed: boolean;
  /** Milliseconds until the current window ends. */
  retryAfterMs: number;
}

/** Where write counters live: process memory (one instance) or Redis (several). */
export interface WriteRateLimitStorage {
  /**
   * Consumes `units` of `key`'s window of `windowMs` if they all fit under `limit`, and nothing
   * otherwise, atomically. A storage that cannot answer rejects: the caller refuses the writes.
   */
  consume(key: string, units: number, limit: number, windowMs: number): Promise<WriteAllowance>;
  close?(): Promise<void>;
}
