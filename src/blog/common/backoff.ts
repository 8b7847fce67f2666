/** How the waits between the attempts of some outbound work grow. */
export interface Backoff {
  /** The wait after the first failed attempt, in ms. */
  baseMs: number;
  /** Each wait is this many times the one before. */
  factor: number;
  /** The longest wait, before jitter. Default: none. */
  maxMs?: number;
  /**
   * The wait is its nominal value times a random factor from `spread[0]` to `spread[1]`, so
   * that the retries of work that failed together do not come back together.
   */
  spread: readonly [number, number];
}

/** The wait after failed attempt number `attempt` (from 1), at least 1 ms. */
export function backoffDelayMs(
  attempt: number,
  backoff: Backoff,
  random: () => number = Math.random,
): number {
  const grown = backoff.baseMs * backoff.factor ** Math.max(0, attempt - 1);
  const nominal = Math.min(backoff.maxMs ?? Infinity, grown);
  const [from, to] = backoff.spread;
  return Math.max(1, Math.round(nominal * (from + (to - from) * random())));
}
