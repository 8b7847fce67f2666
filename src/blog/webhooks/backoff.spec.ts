import { BACKOFF_FACTOR, nextAttemptAt, retryDelayMs, RETRY_WINDOW_MS } from './backoff';

const rule = { baseMs: 30_000, maxAttempts: 8 };
const middle = () => 0.5;

describe('The backoff of webhook retries', () => {
  it('should wait the base first, then grow fourfold each time', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 30_000, middle))).toEqual([
      30_000,
      30_000 * BACKOFF_FACTOR,
      30_000 * BACKOFF_FACTOR ** 2,
      30_000 * BACKOFF_FACTOR ** 3,
    ]);
  });

  it('should spread each wait by at most 20 % either way', () => {
    expect(retryDelayMs(1, 30_000, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, 30_000, () => 0.999999)).toBe(36_000);
    const waits = new Set(Array.from({ length: 50 }, () => retryDelayMs(2, 30_000)));
    expect(waits.size).toBeGreaterThan(1);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(96_000);
      expect(wait).toBeLessThanOrEqual(144_000);
    }
  });

  it('should make at most maxAttempts attempts', () => {
    const at = new Date('2025-01-01T00:00:00Z');
    expect(nextAttemptAt(7, rule, at, at, middle)).not.toBeNull();
    expect(nextAttemptAt(8, rule, at, at, middle)).toBeNull();
    expect(nextAttemptAt(1, { ...rule, maxAttempts: 1 }, at, at, middle)).toBeNull();
  });

  it('should keep every retry within 24 hours of the event, the last at the end of it', () => {
    const eventAt = new Date('2025-01-01T00:00:00Z');
    let now = eventAt;
    const schedule: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const next = nextAttemptAt(attempt, rule, eventAt, now, middle);
      if (!next) break;
      schedule.push(next.getTime() - eventAt.getTime());
      now = next;
    }
    expect(schedule).toHaveLength(7);
    expect(schedule.at(-1)).toBe(RETRY_WINDOW_MS);
    expect(schedule[0]).toBe(30_000);
    expect(
      nextAttemptAt(2, rule, eventAt, new Date(eventAt.getTime() + RETRY_WINDOW_MS)),
    ).toBeNull();
  });
});
