import { backoffDelayMs } from '../common/backoff';

/** How long after its event an event's attempts may go on. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;

/** Each retry waits this many times longer than the one before. */
export const BACKOFF_FACTOR = 4;

/** A wait is its nominal value times a random factor in [1 - JITTER, 1 + JITTER). */
export const JITTER = 0.2;

/** How retries are spaced (see {@link nextAttemptAt}). */
export interface RetryRule {
  /** The wait before the first retry, in ms; later ones grow from it. */
  baseMs: number;
  /** Attempts in all, the first included. */
  maxAttempts: number;
}

/**
 * The wait after failed attempt number `attempt` (from 1): `baseMs` after the first, then
 * {@link BACKOFF_FACTOR} times longer each time, each spread by {@link JITTER} so that the
 * retries of many events that failed together do not come back together.
 */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random) {
  const spread = [1 - JITTER, 1 + JITTER] as const;
  return backoffDelayMs(attempt, { baseMs, factor: BACKOFF_FACTOR, spread }, random);
}

/**
 * When the attempt after failed attempt `attempt` is due, or null when none is: `maxAttempts`
 * are made, and none after {@link RETRY_WINDOW_MS} from the event (a late retry comes at the end
 * of the window instead). With the defaults (30 s, 8 attempts) the retries come about 30 s, 2
 * min, 8 min, 32 min, 2 h, 8.5 h and 24 h after the event.
 */
export function nextAttemptAt(
  attempt: number,
  rule: RetryRule,
  eventAt: Date,
  now: Date,
  random: () => number = Math.random,
): Date | null {
  if (attempt >= rule.maxAttempts) return null;
  const deadline = eventAt.getTime() + RETRY_WINDOW_MS;
  if (now.getTime() >= deadline) return null;
  const due = now.getTime() + retryDelayMs(attempt, rule.baseMs, random);
  return new Date(Math.min(due, deadline));
}
