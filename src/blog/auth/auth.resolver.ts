import { UseGuards } from '@nestjs/common';
import { Args, Context, Extensions, ID, Resolver } from '@nestjs/graphql';

import { BlogContext } from '../blog-context';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { AuthService } from './auth.service';
import { inputValidationPipe } from '../common/validation';
import {
  AuthThrottlerGuard,
  LimitLogIns,
  LimitPasswordChecks,
} from '../limits/auth-throttler.guard';
import { LogInLimiter } from '../limits/log-in-limits';
import { SOLE_ROOT_FIELD } from '../limits/sole-root-field';
import { Viewer } from '../users/viewer';
import { AuthPayload } from './dto/auth-payload.type';
import { ChangePasswordInput } from './dto/change-password.input';
import { LogInInput } from './dto/log-in.input';
import { SignUpInput } from './dto/sign-up.input';
import { CurrentViewer } from './viewer.decorator';

/**
 * On the mutations that revoke the viewer's tokens or delete the account: each must be its
 * operation's only field, so nothing after it runs as the old session (see OperationRules).
 */
export const ALONE = { [SOLE_ROOT_FIELD]: true };

/** The payload goes to the account it signs in, so that account's private fields show in it. */
export function signedIn(context: BlogContext, payload: AuthPayload): AuthPayload {
  (context.signedInNow ??= new Set()).add(payload.user.id);
  return payload;
}

@Resolver(() => AuthPayload)
@BlogResolverEnhancers()
export class AuthResolver {
  constructor(
    private readonly auth: AuthService,
    private readonly logIns: LogInLimiter,
  ) {}

  @BlogMutation(() => AuthPayload, { description: 'Creates an account and signs it in.' })
  @UseGuards(AuthThrottlerGuard)
  async signUp(
    @Args('input', inputValidationPipe) input: SignUpInput,
    @Context() context: BlogContext,
  ): Promise<AuthPayload> {
    const payload = await this.auth.signUp(input);
    await this.logIns.signedUp(input.email, context.req?.ip);
    return signedIn(context, payload);
  }

  @BlogMutation(() => AuthPayload, { description: 'Signs in with an email and password.' })
  @LimitLogIns()
  async logIn(
    @Args('input', inputValidationPipe) input: LogInInput,
    @Context() context: BlogContext,
  ): Promise<AuthPayload> {
    const payload = await this.logIns.attempt(input.email, context.req?.ip, () =>
      this.auth.logIn(input),
    );
    return signedIn(context, payload);
  }

  @BlogMutation(() => AuthPayload, {
    description:
      'Changes the password after checking the current one. Every token issued before stops working; the answer carries a fresh one. Must be the only field of its operation.',
  })
  @Extensions(ALONE)
  @LimitPasswordChecks()
  async changePassword(
    @Args('input', inputValidationPipe) input: ChangePasswordInput,
    @CurrentViewer() viewer: Viewer,
    @Context() context: BlogContext,
  ): Promise<AuthPayload> {
    return signedIn(context, await this.auth.changePassword(viewer, input));
  }

  @BlogMutation(() => Boolean, {
    description:
      "Revokes every token of the viewer issued so far, this request's included. Must be the only field of its operation.",
  })
  @Extensions(ALONE)
  logOutEverywhere(@CurrentViewer() viewer: Viewer): Promise<boolean> {
    return this.auth.logOutEverywhere(viewer);
  }

  @BlogMutation(() => ID, {
    description:
      "Deletes the viewer's account after checking the password: their posts (with those posts' comments and likes), comments, likes and follows go with it. Returns the account's id. Must be the only field of its operation.",
  })
  @Extensions(ALONE)
  @LimitPasswordChecks()
  deleteAccount(
    @Args('password') password: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<string> {
    return this.auth.deleteAccount(viewer, password);
  }
}
