import { GraphQLError } from 'graphql';

import { BlogModuleOptions } from '../blog-options.interface';
import { LogInLimiter, logInLimits } from './log-in-limits';
import { InMemoryWriteRateLimitStorage } from './write-rate-limit';
import { WriteRateLimitStorage } from './write-rate-limit-storage';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('logInLimits', () => {
  it('should derive the ceilings from the limit: 5x in 60x the window per email, 100x overall', () => {
    expect(logInLimits({ limit: 10, windowMs: 60_000 })).toEqual({
      perEmailAndAddress: { limit: 10, windowMs: 60_000 },
      perEmail: { limit: 50, windowMs: 3_600_000 },
      overall: { limit: 1000, windowMs: 60_000 },
      knownAddressMs: 7 * DAY_MS,
    });
  });
});

describe('LogInLimiter', () => {
  let now: number;
  let storage: InMemoryWriteRateLimitStorage;
  let limiter: LogInLimiter;

  const options = (overrides: Partial<BlogModuleOptions> = {}) =>
    ({
      jwtSecret: 'x'.repeat(32),
      authRateLimit: { limit: 2, windowMs: 60_000 },
      writeRateLimitStorage: storage,
      ...overrides,
    }) as BlogModuleOptions;

  beforeEach(() => {
    now = Date.parse('2025-03-04T05:06:07Z');
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    storage = new InMemoryWriteRateLimitStorage();
    limiter = new LogInLimiter(options());
  });
  afterEach(() => jest.restoreAllMocks());

  const wrong = async (): Promise<string> => {
    throw new Error('wrong password');
  };
  const right = async (): Promise<string> => 'token';
  /** The code of the refusal, or 'tried' when the password check ran. */
  const attempt = async (email: string, address: string, check = wrong) => {
    try {
      return await limiter.attempt(email, address, check);
    } catch (error) {
      return error instanceof GraphQLError ? error.extensions.code : 'tried';
    }
  };
  const attempts = async (count: number, email: string, address: (i: number) => string) => {
    const codes = [];
    for (let i = 0; i < count; i++) codes.push(await attempt(email, address(i)));
    return codes;
  };

  it('should count attempts per email and address at the limit, in any spelling of the email', async () => {
    expect(await attempts(3, 'Ann@Example.com', () => '10.0.0.1')).toEqual([
      'tried',
      'tried',
      'TOO_MANY_REQUESTS',
    ]);
    expect(await attempt('ann@example.com', '10.0.0.1', right)).toBe('TOO_MANY_REQUESTS');
    // Another address, or another email from that address, is not held back.
    expect(await attempt('ann@example.com', '10.0.0.2', right)).toBe('token');
    expect(await attempt('bob@example.com', '10.0.0.1')).toBe('tried');
  });

  it('should count the IPv6 addresses of one /64 as one address', async () => {
    expect(await attempts(3, 'ann@example.com', (i) => `2001:4860:4860:1::${i + 1}`)).toEqual([
      'tried',
      'tried',
      'TOO_MANY_REQUESTS',
    ]);
  });

  it('should stop a guess spread over many addresses at the ceiling per email', async () => {
    // 5 x 2 attempts in 60 minutes, whichever addresses they come from.
    const codes = await attempts(11, 'ann@example.com', (i) => `10.1.0.${i}`);
    expect(codes).toEqual([...Array(10).fill('tried'), 'TOO_MANY_REQUESTS']);
    const refusal = await limiter.attempt('ann@example.com', '10.1.1.1', right).catch((e) => e);
    expect((refusal as GraphQLError).extensions).toEqual({
      code: 'TOO_MANY_REQUESTS',
      retryAfter: 3600,
    });
    expect((refusal as GraphQLError).message).toMatch(/for this email; try again in 3600 s/);

    now += 60 * 60_000;
    expect(await attempt('ann@example.com', '10.1.1.1', right)).toBe('token');
  });

  it('should let an address that signed in to the email this week past the ceilings', async () => {
    expect(await attempt('ann@example.com', '10.2.0.1', right)).toBe('token');
    await attempts(20, 'ann@example.com', (i) => `10.3.0.${i}`);
    expect(await attempt('ann@example.com', '10.3.1.1', right)).toBe('TOO_MANY_REQUESTS');

    const signedIn = now;
    for (const days of [1, 6, 7]) {
      now = signedIn + days * DAY_MS;
      expect(await attempt('ann@example.com', '10.2.0.1', right)).toBe('token');
    }
    // Still counted per email and address, though.
    now += 60_000;
    expect(await attempts(3, 'ann@example.com', () => '10.2.0.1')).toEqual([
      'tried',
      'tried',
      'TOO_MANY_REQUESTS',
    ]);
  });

  it('should keep an address known for at least 7 days after its latest log-in', async () => {
    await attempt('ann@example.com', '10.4.0.1', right);
    now += 6 * DAY_MS;
    await attempt('ann@example.com', '10.4.0.1', right);
    now += 6.9 * DAY_MS;
    await attempts(10, 'ann@example.com', (i) => `10.5.0.${i}`);
    expect(await attempt('ann@example.com', '10.5.1.1', right)).toBe('TOO_MANY_REQUESTS');
    expect(await attempt('ann@example.com', '10.4.0.1', right)).toBe('token');
  });

  it('should forget an address after two weeks without a log-in', async () => {
    await attempt('ann@example.com', '10.6.0.1', right);
    now += 15 * DAY_MS;
    await attempts(10, 'ann@example.com', (i) => `10.7.0.${i}`);
    expect(await attempt('ann@example.com', '10.6.0.1', right)).toBe('TOO_MANY_REQUESTS');
  });

  it('should count a sign-up as a log-in from its address', async () => {
    await limiter.signedUp('New@Example.com', '10.8.0.1');
    await attempts(10, 'new@example.com', (i) => `10.9.0.${i}`);
    expect(await attempt('new@example.com', '10.8.0.1', right)).toBe('token');
  });

  it('should stop attempts on many emails at the overall ceiling, but not known addresses', async () => {
    // 100 x 2 a minute, over all emails and addresses.
    const codes = [];
    for (let i = 0; i < 201; i++) codes.push(await attempt(`user${i}@example.com`, `10.10.0.${i}`));
    expect(codes.filter((code) => code === 'tried')).toHaveLength(200);
    expect(codes[200]).toBe('TOO_MANY_REQUESTS');
    expect(await attempt('late@example.com', '10.11.0.1', right)).toBe('TOO_MANY_REQUESTS');

    now -= 60_000; // (a sign-up earlier, from this address)
    await limiter.signedUp('owner@example.com', '10.12.0.1');
    now += 60_000;
    expect(await attempt('owner@example.com', '10.12.0.1', right)).toBe('token');
  });

  it('should leave no counter per email for attempts refused by the overall ceiling', async () => {
    const tiny = new LogInLimiter(options({ authRateLimit: { limit: 1, windowMs: 60_000 } }));
    for (let i = 0; i < 100; i++) {
      await tiny.attempt(`u${i}@example.com`, `10.13.0.${i}`, right);
    }
    const consume = jest.spyOn(storage, 'consume');
    await expect(tiny.attempt('victim@example.com', '10.13.1.1', right)).rejects.toThrow(
      /on this service/,
    );
    const taken = consume.mock.calls.filter(([, units]) => units > 0).map(([key]) => key);
    expect(taken).toEqual([expect.stringMatching(/^log-in:pair:/)]);
  });

  it('should refuse with SERVICE_UNAVAILABLE when the counters cannot answer', async () => {
    const down: WriteRateLimitStorage = {
      consume: () => Promise.reject(new Error('connection refused')),
    };
    const failing = new LogInLimiter(options({ writeRateLimitStorage: down }));
    let checked = false;
    const error = await failing
      .attempt('ann@example.com', '10.14.0.1', async () => {
        checked = true;
        return 'token';
      })
      .catch((e: GraphQLError) => e);
    expect((error as GraphQLError).extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect(checked).toBe(false);
  });
});
