import { ExecutionContext, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import { BlogContext } from '../blog-context';
import { tooManyRequests } from '../common/errors';
import { canonicalIdentifier } from '../users/user-identifiers';

/**
 * The tracker of the `auth-email` throttler: the email the attempt names, normalised as accounts
 * are, so that guessing one account's password from many addresses is limited too.
 */
export function emailTracker(_req: Record<string, unknown>, context: ExecutionContext): string {
  const input: unknown = GqlExecutionContext.create(context).getArgs<{ input?: unknown }>().input;
  const email = (input as { email?: unknown } | undefined)?.email;
  return `email:${typeof email === 'string' ? canonicalIdentifier(email) : ''}`;
}

/**
 * Limits sign-up and log-in attempts per client address and per email (password guessing,
 * account spam); past either limit the answer is TOO_MANY_REQUESTS, with `retryAfter` in
 * seconds, until the block expires.
 */
@Injectable()
export class AuthThrottlerGuard extends ThrottlerGuard {
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
}
