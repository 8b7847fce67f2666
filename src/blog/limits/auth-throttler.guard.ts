import { createHash } from 'node:crypto';

import {
  applyDecorators,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import {
  SkipThrottle,
  ThrottlerLimitDetail,
  ThrottlerOptions,
  ThrottlerGuard,
  ThrottlerRequest,
  ThrottlerStorage,
} from '@nestjs/throttler';

import { BlogContext } from '../blog-context';
import { BlogModuleOptions, RateLimit } from '../blog-options.interface';
import { tooManyRequests } from '../common/errors';
import { canonicalIdentifier } from '../users/user-identifiers';

/** AUTH_RATE_LIMIT's default: 10 attempts a minute. */
export const DEFAULT_AUTH_RATE_LIMIT: RateLimit = { limit: 10, windowMs: 60_000 };

/** The throttler per client address. */
const PER_ADDRESS = 'auth';
/** The throttler per account: the email `signUp` names, or the viewer of an account operation. */
const PER_ACCOUNT = 'auth-account';

/** The guard's two throttlers, each at the module's `authRateLimit`. */
export function authThrottlers({
  authRateLimit = DEFAULT_AUTH_RATE_LIMIT,
}: BlogModuleOptions): ThrottlerOptions[] {
  return [
    { name: PER_ADDRESS, limit: authRateLimit.limit, ttl: authRateLimit.windowMs },
    { name: PER_ACCOUNT, limit: authRateLimit.limit, ttl: authRateLimit.windowMs },
  ];
}

/** The email an attempt names (`input.email`, or `email`), normalised as accounts are. */
function emailTracker(_req: Record<string, unknown>, context: ExecutionContext): string {
  const args = GqlExecutionContext.create(context).getArgs<{ input?: unknown; email?: unknown }>();
  const email = (args.input as { email?: unknown } | undefined)?.email ?? args.email;
  return `email:${typeof email === 'string' ? canonicalIdentifier(email) : ''}`;
}

/** The signed-in user, by id: an email names an account for anyone, an id comes with a token. */
function viewerTracker(_req: Record<string, unknown>, context: ExecutionContext): string {
  return `user:${GqlExecutionContext.create(context).getContext<BlogContext>().viewer?.id ?? ''}`;
}

/** The counter of password checks on one tracker: shared by every mutation that checks one. */
function passwordCheckKey(throttlerName: string, tracker: string): string {
  return createHash('sha256').update(`password-check-${throttlerName}-${tracker}`).digest('hex');
}

/**
 * Counts a password check that a mutation makes only sometimes (updateProfile, when it changes
 * the address) against the signed-in user's counter, which changePassword and deleteAccount
 * share; TOO_MANY_REQUESTS past the limit, as {@link LimitPasswordChecks} answers.
 */
export async function countPasswordCheck(
  storage: ThrottlerStorage,
  { authRateLimit = DEFAULT_AUTH_RATE_LIMIT }: BlogModuleOptions,
  userId: string,
): Promise<void> {
  const { limit, windowMs } = authRateLimit;
  const key = passwordCheckKey(PER_ACCOUNT, `user:${userId}`);
  const record = await storage.increment(key, windowMs, limit, windowMs, PER_ACCOUNT);
  if (!record.isBlocked) return;
  const retryAfter = Math.max(1, record.timeToBlockExpire);
  throw tooManyRequests(`Too many attempts; try again in ${retryAfter} s.`, retryAfter);
}

const PASSWORD_CHECK = 'blog:passwordCheck';
const PER_VIEWER = 'blog:perViewer';

/**
 * On the mutations that check the viewer's password (changePassword, deleteAccount): their
 * attempts count against the client address's limit, which log-ins share, and against one limit
 * per signed-in user, so that a stolen token gives no more guesses than before, while nobody
 * who merely names the owner's email can use it up.
 */
export const LimitPasswordChecks = () =>
  applyDecorators(SetMetadata(PASSWORD_CHECK, true), UseGuards(AuthThrottlerGuard));

/**
 * On logIn: its attempts count against the client address's limit, shared with the other
 * password checks; the limits per email and address, per email and in all are the
 * LogInLimiter's, which knows which addresses have signed in before.
 */
export const LimitLogIns = () =>
  applyDecorators(
    SetMetadata(PASSWORD_CHECK, true),
    SkipThrottle({ [PER_ACCOUNT]: true }),
    UseGuards(AuthThrottlerGuard),
  );

/**
 * On a mutation of the signed-in user that is not a password check (requestEmailVerification):
 * its attempts count against the client address's limit and one per signed-in user, each of its
 * own.
 */
export const LimitPerViewer = () =>
  applyDecorators(SetMetadata(PER_VIEWER, true), UseGuards(AuthThrottlerGuard));

/**
 * On a mutation that names no account before it runs (resetPassword and verifyEmail, which
 * carry a token): its attempts count against the client address's limit only.
 */
export const LimitPerAddress = () =>
  applyDecorators(SkipThrottle({ [PER_ACCOUNT]: true }), UseGuards(AuthThrottlerGuard));

/**
 * Limits sign-up attempts and password checks per client address, and per account (the email
 * `signUp` or `requestPasswordReset` names; the signed-in user for {@link LimitPasswordChecks}
 * and {@link LimitPerViewer}); past either limit the answer is TOO_MANY_REQUESTS, with
 * `retryAfter` in seconds, until the block expires. The password checks share their counters;
 * every other mutation counts on its own.
 */
@Injectable()
export class AuthThrottlerGuard extends ThrottlerGuard {
  protected override handleRequest(request: ThrottlerRequest): Promise<boolean> {
    if (request.throttler.name !== PER_ACCOUNT) return super.handleRequest(request);
    if (!this.isPasswordCheck(request.context) && !this.isPerViewer(request.context)) {
      return super.handleRequest({ ...request, getTracker: emailTracker });
    }
    // Signed out, the operation is refused as UNAUTHENTICATED: there is no account to count.
    const { viewer } = GqlExecutionContext.create(request.context).getContext<BlogContext>();
    if (!viewer) return Promise.resolve(true);
    return super.handleRequest({ ...request, getTracker: viewerTracker });
  }

  protected override generateKey(
    context: ExecutionContext,
    tracker: string,
    throttlerName: string,
  ): string {
    if (!this.isPasswordCheck(context)) return super.generateKey(context, tracker, throttlerName);
    return passwordCheckKey(throttlerName, tracker);
  }

  protected override getRequestResponse(context: ExecutionContext) {
    const { req } = GqlExecutionContext.create(context).getContext<BlogContext>();
    // GraphQL answers carry no rate-limit headers: the error says when to try again.
    return { req: req ?? {}, res: { header: () => undefined } };
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const retryAfter = Math.max(1, detail.timeToBlockExpire);
    throw tooManyRequests(`Too many attempts; try again in ${retryAfter} s.`, retryAfter);
  }

  private isPasswordCheck(context: ExecutionContext): boolean {
    return this.reflector.get<boolean | undefined>(PASSWORD_CHECK, context.getHandler()) ?? false;
  }

  private isPerViewer(context: ExecutionContext): boolean {
    return this.reflector.get<boolean | undefined>(PER_VIEWER, context.getHandler()) ?? false;
  }
}
