import { UseGuards } from '@nestjs/common';
import { Args, Context, Mutation, Resolver } from '@nestjs/graphql';
import { BlogContext } from '../common/blog-context';
import { inputValidationPipe } from '../common/validation';
import { AuthThrottlerGuard } from '../limits/auth-throttler.guard';
import { AuthService } from './auth.service';
import { AuthPayload } from './dto/auth-payload.type';
import { LogInInput } from './dto/log-in.input';
import { SignUpInput } from './dto/sign-up.input';
import { BlogResolverEnhancers } from '../common/blog-resolver.decorator';

/** The payload goes to the account it signs in, so that account's private fields show in it. */
function signedIn(context: BlogContext, payload: AuthPayload): AuthPayload {
  (context.signedInNow ??= new Set()).add(payload.user.id);
  return payload;
}

@Resolver(() => AuthPayload)
@BlogResolverEnhancers()
export class AuthResolver {
  constructor(private readonly auth: AuthService) {}

  @Mutation(() => AuthPayload, { description: 'Creates an account and signs it in.' })
  @UseGuards(AuthThrottlerGuard)
  async signUp(
    @Args('input', inputValidationPipe) input: SignUpInput,
    @Context() context: BlogContext,
  ): Promise<AuthPayload> {
    return signedIn(context, await this.auth.signUp(input));
  }

  @Mutation(() => AuthPayload, { description: 'Signs in with an email and password.' })
  @UseGuards(AuthThrottlerGuard)
  async logIn(
    @Args('input', inputValidationPipe) input: LogInInput,
    @Context() context: BlogContext,
  ): Promise<AuthPayload> {
    return signedIn(context, await this.auth.logIn(input));
  }
}
