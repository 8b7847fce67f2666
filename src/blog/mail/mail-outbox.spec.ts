import { describeFailure, retryDelayMs } from './mail-outbox';

describe('retryDelayMs', () => {
  it('should wait the base, then double it after each attempt, jittered down by up to half', () => {
    const base = 30_000;
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, base, () => 0))).toEqual([
      30_000, 60_000, 120_000, 240_000,
    ]);
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, base, () => 1))).toEqual([
      15_000, 30_000, 60_000, 120_000,
    ]);
  });

  it('should wait 6 hours at most, however many attempts came before', () => {
    expect(retryDelayMs(40, 30_000, () => 0)).toBe(6 * 3_600_000);
  });
});

describe('describeFailure', () => {
  it('should name the SMTP answer code and hide anything as long as a token', () => {
    const token = 'A'.repeat(43);
    const error = Object.assign(new Error(`Message failed:\n451 try ${token} later`), {
      responseCode: 451,
    });

    expect(describeFailure(error)).toBe('Message failed: 451 try [redacted] later (SMTP 451)');
  });

  it('should keep 500 characters at most', () => {
    expect(describeFailure(new Error('x '.repeat(1000)))).toHaveLength(500);
  });
});
