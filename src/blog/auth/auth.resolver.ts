import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { inputValidationPipe } from '../common/validation';
import { AuthService } from './auth.service';
import { AuthPayload } from './dto/auth-payload.type';
import { LogInInput } from './dto/log-in.input';
import { SignUpInput } from './dto/sign-up.input';
import { ViewerGuard } from './viewer.guard';

@Resolver(() => AuthPayload)
@UseGuards(ViewerGuard)
export class AuthResolver {
  constructor(private readonly auth: AuthService) {}

  @Mutation(() => AuthPayload, { description: 'Creates an account and signs it in.' })
  signUp(@Args('input', inputValidationPipe) input: SignUpInput): Promise<AuthPayload> {
    return this.auth.signUp(input);
  }

  @Mutation(() => AuthPayload, { description: 'Signs in with an email and password.' })
  logIn(@Args('input', inputValidationPipe) input: LogInInput): Promise<AuthPayload> {
    return this.auth.logIn(input);
  }
}
