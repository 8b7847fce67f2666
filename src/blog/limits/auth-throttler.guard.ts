import { createHash } from 'node:crypto';

import {
  applyDecorators,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';

import { BlogContext } from '../blog-context';
import { tooManyRequests } from '../common/errors';
import { canonicalIdentifier } from '../users/user-identifiers';

/**
 * The tracker of the `auth-email` throttler: the email the attempt names, normalised as accounts
 * are, so that guessing one account's password from many addresses is limited too; for an
 * operation on the viewer's own account (changePassword, deleteAccount), the viewer's email.
 */
export function emailTracker(_req: Record<string, unknown>, context: ExecutionContext): string {
  const gql = GqlExecutionContext.create(context);
  const input: unknown = gql.getArgs<{ input?: unknown }>().input;
  const email =
    (input as { email?: unknown } | undefined)?.email ??
    gql.getContext<BlogContext>().viewer?.email;
  return `email:${typeof email === 'string' ? canonicalIdentifier(email) : ''}`;
}

const PASSWORD_CHECK = 'blog:passwordCheck';

/**
 * On every mutation that checks a password (logIn, changePassword, deleteAccount): the attempts
 * of all of them count against one limit per client address and one per account, so a stolen
 * token gives no more guesses than the log-in form.
 */
export const LimitPasswordChecks = () =>
  applyDecorators(SetMetadata(PASSWORD_CHECK, true), UseGuards(AuthThrottlerGuard));

/**
 * Limits sign-up attempts and password checks per client address and per email (password
 * guessing, account spam); past either limit the answer is TOO_MANY_REQUESTS, with
 * `retryAfter` in seconds, until the block expires. The password checks share their counters
 * ({@link LimitPasswordChecks}); sign-up counts on its own.
 */
@Injectable()
export class AuthThrottlerGuard extends ThrottlerGuard {
  protected override generateKey(
    context: ExecutionContext,
    tracker: string,
    throttlerName: string,
  ): string {
    if (!this.reflector.get<boolean | undefined>(PASSWORD_CHECK, context.getHandler())) {
      return super.generateKey(context, tracker, throttlerName);
    }
    return createHash('sha256').update(`password-check-${throttlerName}-${tracker}`).digest('hex');
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
}
