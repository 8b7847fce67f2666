import { buildSchema, GraphQLError, parse } from 'graphql';

import { BlogModuleOptions } from '../blog-options.interface';
import {
  countWrites,
  InMemoryWriteRateLimitStorage,
  newAccountLimit,
  RedisWriteRateLimitStorage,
  WriteRateLimiter,
} from './write-rate-limit';
import { WriteRateLimitStorage } from './write-rate-limit-storage';

const schema = buildSchema(`
  type Query { me: ID }
  type Mutation { a: ID b(x: Int): ID }
`);

describe('countWrites', () => {
  const count = (document: string, variables?: Record<string, unknown>, name?: string) =>
    countWrites(schema, parse(document), name, variables);

  it.each([
    ['a query', '{ me }', 0],
    ['one field', 'mutation { a }', 1],
    ['aliases of one field', 'mutation { x: a y: a z: a }', 3],
    ['the same field twice, merged as execution merges it', 'mutation { a a }', 1],
    ['__typename', 'mutation { __typename a }', 1],
    [
      'a fragment and an inline fragment',
      'mutation { ...F ... on Mutation { c: b } } fragment F on Mutation { a b }',
      3,
    ],
    ['a skipped field', 'mutation { a b @skip(if: true) }', 1],
  ])('should count %s', (_, document, writes) => {
    expect(count(document)).toBe(writes);
  });

  it('should apply @include with the variables', () => {
    const document = 'mutation ($on: Boolean!) { a b @include(if: $on) }';
    expect(count(document, { on: false })).toBe(1);
    expect(count(document, { on: true })).toBe(2);
  });

  it('should count the named operation only', () => {
    const document = 'query Q { me } mutation M { x: a y: a }';
    expect(count(document, {}, 'Q')).toBe(0);
    expect(count(document, {}, 'M')).toBe(2);
  });
});

describe('InMemoryWriteRateLimitStorage', () => {
  it('should take all the units that fit, and none of a request that does not fit', async () => {
    const storage = new InMemoryWriteRateLimitStorage();
    expect((await storage.consume('u', 3, 5, 60_000)).allowed).toBe(true);
    const refused = await storage.consume('u', 3, 5, 60_000);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect((await storage.consume('u', 2, 5, 60_000)).allowed).toBe(true);
    expect((await storage.consume('u', 1, 5, 60_000)).allowed).toBe(false);
    expect((await storage.consume('someone else', 5, 5, 60_000)).allowed).toBe(true);
  });

  it('should answer a look of zero units, which takes nothing', async () => {
    const storage = new InMemoryWriteRateLimitStorage();
    expect(await storage.consume('u', 0, 0, 60_000)).toEqual({ allowed: true, retryAfterMs: 0 });
    expect((await storage.consume('u', 1, 1, 60_000)).allowed).toBe(true);
    const look = await storage.consume('u', 0, 0, 60_000);
    expect(look.allowed).toBe(false);
    expect(look.retryAfterMs).toBeGreaterThan(0);
    expect((await storage.consume('u', 0, 1, 60_000)).allowed).toBe(true);
  });
});

describe('WriteRateLimiter', () => {
  const limiter = (storage: WriteRateLimitStorage, limit = 5, newAccountHours = 0) =>
    new WriteRateLimiter({
      jwtSecret: 'x'.repeat(32),
      writeRateLimit: { limit, windowMs: 60_000 },
      writeRateLimitStorage: storage,
      newAccountHours,
    } as BlogModuleOptions);
  const HOUR = 3_600_000;
  const writer = (id = 'user', ageMs = 365 * 24 * HOUR) => ({
    id,
    createdAt: new Date(Date.now() - ageMs),
  });

  const refusal = async (action: Promise<unknown>) => {
    try {
      await action;
    } catch (error) {
      return error as GraphQLError;
    }
    throw new Error('expected a refusal');
  };

  it('should refuse with TOO_MANY_REQUESTS and retryAfter in whole seconds', async () => {
    const writes = limiter(new InMemoryWriteRateLimitStorage(), 2);
    const error = await refusal(writes.consume(writer(), 3));
    expect(error.extensions.code).toBe('TOO_MANY_REQUESTS');
    expect(error.extensions.retryAfter).toBe(60);
  });

  it('should fail closed with SERVICE_UNAVAILABLE when the counters cannot be reached', async () => {
    const down: WriteRateLimitStorage = {
      consume: () => Promise.reject(new Error('ECONNREFUSED')),
    };
    const error = await refusal(limiter(down).consume(writer(), 1));
    expect(error.extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.message).not.toMatch(/ECONN|redis/i);
  });

  it('should give an account younger than newAccountHours a tenth of the allowance', async () => {
    const writes = limiter(new InMemoryWriteRateLimitStorage(), 20, 24);
    const fresh = writer('fresh', HOUR);
    await writes.consume(fresh, 1);
    await writes.consume(fresh, 1);
    const error = await refusal(writes.consume(fresh, 1));
    expect(error.extensions.code).toBe('TOO_MANY_REQUESTS');
    expect(error.message).toContain('younger than 24 hours');
    const old = writer('old', 25 * HOUR);
    for (let n = 0; n < 20; n++) await writes.consume(old, 1);
    expect((await refusal(writes.consume(old, 1))).extensions.code).toBe('TOO_MANY_REQUESTS');
  });

  it('should round a tenth down, keeping one write at least', () => {
    expect([120, 20, 29, 10, 9, 1].map(newAccountLimit)).toEqual([12, 2, 2, 1, 1, 1]);
  });

  it('should treat no account as new when newAccountHours is 0', async () => {
    const writes = limiter(new InMemoryWriteRateLimitStorage(), 20, 0);
    await expect(writes.consume(writer('fresh', 0), 20)).resolves.toBeUndefined();
  });

  it('should be off with a limit of 0', async () => {
    const down: WriteRateLimitStorage = { consume: () => Promise.reject(new Error('unused')) };
    const writes = limiter(down, 0);
    expect(writes.enabled).toBe(false);
    await expect(writes.consume(writer(), 100)).resolves.toBeUndefined();
  });
});

describe('RedisWriteRateLimitStorage', () => {
  it('should reject, not hang, when Redis cannot be reached', async () => {
    // Port 1 on the loopback interface: nothing listens there.
    const storage = new RedisWriteRateLimitStorage('redis://127.0.0.1:1');
    try {
      await expect(storage.consume('u', 1, 5, 60_000)).rejects.toThrow();
    } finally {
      await storage.close();
    }
  });
});
