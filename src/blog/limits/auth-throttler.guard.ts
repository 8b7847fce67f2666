import { ExecutionContext, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import { BlogContext } from '../common/blog-context';
import { tooManyRequests } from '../common/errors';

/**
 * Limits sign-up and log-in attempts per client address (password guessing, account spam);
 * past the limit the answer is TOO_MANY_REQUESTS until the block expires.
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
    throw tooManyRequests(`Too many attempts; try again in ${detail.timeToBlockExpire} s.`);
  }
}
