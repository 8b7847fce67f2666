import { UseGuards } from '@nestjs/common';
import { Args, Context, Extensions, Resolver, ResolveField } from '@nestjs/graphql';

import { AccountEmailService } from './account-email.service';
import { ALONE, signedIn } from './auth.resolver';
import {
  RequestPasswordResetArgs,
  ResetPasswordArgs,
  VerifyEmailArgs,
} from './dto/account-email.args';
import { AuthPayload } from './dto/auth-payload.type';
import { CurrentViewer } from './viewer.decorator';
import { BlogContext, mayViewPrivateFields } from '../blog-context';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { inputValidationPipe } from '../common/validation';
import {
  AuthThrottlerGuard,
  LimitPerAddress,
  LimitPerViewer,
} from '../limits/auth-throttler.guard';
import { User } from '../users/user.entity';
import { Viewer } from '../users/viewer';

/** Password resets and address verification by mail, and whether an address is verified. */
@Resolver(() => User)
@BlogResolverEnhancers()
export class AccountEmailResolver {
  constructor(private readonly accountEmail: AccountEmailService) {}

  @BlogMutation(() => Boolean, {
    description:
      'Mails a password reset link to the account of `email`, if there is one. Always true: the answer tells nothing of the account. Limited per client address and per email (TOO_MANY_REQUESTS, alike for any address); an account gets at most 5 resets an hour, past which the answer is still true and nothing is sent.',
  })
  @UseGuards(AuthThrottlerGuard)
  requestPasswordReset(
    @Args(inputValidationPipe) { email }: RequestPasswordResetArgs,
  ): Promise<boolean> {
    return this.accountEmail.requestPasswordReset(email);
  }

  @BlogMutation(() => AuthPayload, {
    description:
      'Sets a new password with the token of a reset link, revokes every token of the account issued before and signs it in; the address is then verified. An unknown, used or expired token is BAD_USER_INPUT (field `token`), always the same. Must be the only field of its operation.',
  })
  @Extensions(ALONE)
  @LimitPerAddress()
  async resetPassword(
    @Args(inputValidationPipe) { token, newPassword }: ResetPasswordArgs,
    @Context() context: BlogContext,
  ): Promise<AuthPayload> {
    return signedIn(context, await this.accountEmail.resetPassword(token, newPassword));
  }

  @BlogMutation(() => Boolean, {
    description:
      'Mails the viewer a link that verifies their address: true once queued, false when it is verified already or the service sends no mail. At most 5 an hour (TOO_MANY_REQUESTS).',
  })
  @LimitPerViewer()
  requestEmailVerification(@CurrentViewer() viewer: Viewer): Promise<boolean> {
    return this.accountEmail.requestEmailVerification(viewer);
  }

  @BlogMutation(() => User, {
    description:
      "Verifies the address a verification link was mailed to, signed in or not, and answers its account, with the account's own fields. The same BAD_USER_INPUT as `resetPassword` for a bad token.",
  })
  @LimitPerAddress()
  async verifyEmail(
    @Args(inputValidationPipe) { token }: VerifyEmailArgs,
    @Context() context: BlogContext,
  ): Promise<User> {
    const user = await this.accountEmail.verifyEmail(token);
    // The link proves the mailbox, which could reset the password: the owner's view.
    (context.signedInNow ??= new Set()).add(user.id);
    if (context.viewer?.id === user.id) context.viewer.emailVerified = true;
    return user;
  }

  @ResolveField(() => Boolean, {
    description:
      'Whether the user confirmed their address (verifyEmail, or a password reset); shown to the user and to admins, false to everyone else.',
  })
  emailVerified(user: User, _args: unknown, context: BlogContext): boolean {
    return mayViewPrivateFields(context, user.id) ? user.emailVerified : false;
  }
}
