import { createHash } from 'node:crypto';

import { Inject, Injectable, Logger } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';

import { BlogModuleOptions, RateLimit } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { DEFAULT_AUTH_RATE_LIMIT } from './auth-throttler.guard';
import { InMemoryWriteRateLimitStorage } from './write-rate-limit';
import { WriteAllowance, WriteRateLimitStorage } from './write-rate-limit-storage';
import { messageOf, serviceUnavailable, tooManyRequests } from '../common/errors';
import { canonicalIdentifier } from '../users/user-identifiers';

/** The limits on logIn, all derived from the module's `authRateLimit`. */
export interface LogInLimits {
  /** Attempts on one email from one client address: `authRateLimit` itself. */
  perEmailAndAddress: RateLimit;
  /** Attempts on one email from every address: 5 times the limit in 60 times the window. */
  perEmail: RateLimit;
  /** Attempts on the whole service (every instance sharing the storage): 100 times the limit. */
  overall: RateLimit;
  /**
   * How long a successful log-in (or sign-up) keeps its address exempt from the two ceilings
   * for that email: at least this long, and at most twice (marks are kept by period).
   */
  knownAddressMs: number;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export function logInLimits({ limit, windowMs }: RateLimit): LogInLimits {
  return {
    perEmailAndAddress: { limit, windowMs },
    perEmail: { limit: 5 * limit, windowMs: 60 * windowMs },
    overall: { limit: 100 * limit, windowMs },
    knownAddressMs: WEEK_MS,
  };
}

/** IPv6 clients are counted by /64, as the per-address throttler counts them. */
const IPV6_PREFIX = 64;
const OVERALL_KEY = 'log-in:overall';

const hash = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The counters one attempt touches. */
interface Attempt {
  perEmailAndAddress: string;
  perEmail: string;
  /** The mark of this email and address, in this period and the one before. */
  known: [string, string];
}

/**
 * Limits logIn so that guessing stays slow and nobody can lock an owner out by naming their
 * email. Each attempt counts per email and client address, at the module's `authRateLimit`.
 * Attempts from an address that has not signed in to that email recently also count per email
 * across all addresses, and against a ceiling for the whole service, both slower than anyone
 * types: a guess spread over many addresses runs into them, while the owner, at an address
 * they signed in from this week, does not. Past a limit the answer is TOO_MANY_REQUESTS with
 * `retryAfter`; while the counters cannot answer (Redis down) it is SERVICE_UNAVAILABLE.
 *
 * The counters and the marks of known addresses live in the module's `writeRateLimitStorage`,
 * so with Redis every instance shares them.
 */
@Injectable()
export class LogInLimiter {
  private readonly limits: LogInLimits;
  private readonly storage: WriteRateLimitStorage;
  private readonly logger = new Logger('LogInLimiter');

  constructor(@Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions) {
    this.limits = logInLimits(options.authRateLimit ?? DEFAULT_AUTH_RATE_LIMIT);
    this.storage = options.writeRateLimitStorage ?? new InMemoryWriteRateLimitStorage();
  }

  /**
   * Runs `logIn`, the password check of `email` from `address`, if the limits admit one more
   * attempt, and marks the address as known to the email when it succeeds.
   */
  async attempt<T>(
    email: string,
    address: string | undefined,
    logIn: () => Promise<T>,
  ): Promise<T> {
    const attempt = this.attemptOf(email, address);
    await this.admit(attempt);
    const result = await logIn();
    await this.markKnown(attempt);
    return result;
  }

  /** Marks `address` as known to `email` after a sign-up there, as a log-in would. */
  async signedUp(email: string, address: string | undefined): Promise<void> {
    await this.markKnown(this.attemptOf(email, address));
  }

  private attemptOf(email: string, address: string | undefined): Attempt {
    const account = canonicalIdentifier(email);
    const pair = hash(`${account}\n${normalizeIp(address ?? '', IPV6_PREFIX)}`);
    const period = Math.floor(Date.now() / this.limits.knownAddressMs);
    return {
      perEmailAndAddress: `log-in:pair:${pair}`,
      perEmail: `log-in:email:${hash(account)}`,
      known: [`log-in:known:${period}:${pair}`, `log-in:known:${period - 1}:${pair}`],
    };
  }

  private async admit(attempt: Attempt): Promise<void> {
    const { perEmailAndAddress, perEmail, overall } = this.limits;
    const [pair, known, room] = await this.counted(() =>
      Promise.all([
        this.take(attempt.perEmailAndAddress, perEmailAndAddress),
        this.isKnown(attempt),
        // A look first, so that attempts past the overall ceiling leave no counter per email.
        this.storage.consume(OVERALL_KEY, 0, overall.limit - 1, overall.windowMs),
      ]),
    );
    refuseUnless(pair, 'for this email from this address');
    if (known) return;
    refuseUnless(room, 'on this service');
    refuseUnless(await this.counted(() => this.take(attempt.perEmail, perEmail)), 'for this email');
    refuseUnless(await this.counted(() => this.take(OVERALL_KEY, overall)), 'on this service');
  }

  private take(key: string, { limit, windowMs }: RateLimit): Promise<WriteAllowance> {
    return this.storage.consume(key, 1, limit, windowMs);
  }

  /** Whether a mark of this period or the last is there; looking writes nothing. */
  private async isKnown({ known }: Attempt): Promise<boolean> {
    const window = 2 * this.limits.knownAddressMs;
    const marks = await Promise.all(known.map((key) => this.storage.consume(key, 0, 0, window)));
    return marks.some((mark) => !mark.allowed);
  }

  /**
   * A mark lives two periods from its first success, and is looked for in its period and the
   * next, so it holds at least one period after the latest success.
   */
  private async markKnown({ known: [mark] }: Attempt): Promise<void> {
    const window = 2 * this.limits.knownAddressMs;
    try {
      await this.storage.consume(mark, 1, Number.MAX_SAFE_INTEGER, window);
    } catch (error) {
      // The password was right: the log-in stands, only the exemption is lost.
      this.logger.warn(`Could not remember a known log-in address: ${messageOf(error)}`);
    }
  }

  private async counted<T>(count: () => Promise<T>): Promise<T> {
    try {
      return await count();
    } catch (error) {
      this.logger.warn(`Refused a log-in that could not be counted: ${messageOf(error)}`);
      throw serviceUnavailable('Logging in is unavailable for now; try again soon.');
    }
  }
}

function refuseUnless(allowance: WriteAllowance, where: string): void {
  if (allowance.allowed) return;
  const retryAfter = Math.max(1, Math.ceil(allowance.retryAfterMs / 1000));
  throw tooManyRequests(
    `Too many log-in attempts ${where}; try again in ${retryAfter} s.`,
    retryAfter,
  );
}
