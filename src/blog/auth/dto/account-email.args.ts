import { ArgsType, Field } from '@nestjs/graphql';
import { IsString, MaxLength, MinLength } from 'class-validator';

import { CanonicalIdentifier } from '../../users/user-identifiers';

/** The longest token argument read: longer ones are no token of ours (43 characters). */
const TOKEN_MAX_LENGTH = 200;

@ArgsType()
export class RequestPasswordResetArgs {
  @Field({ description: "The account's email; any address is answered alike." })
  @CanonicalIdentifier()
  @IsString()
  @MaxLength(254)
  email: string;
}

@ArgsType()
export class ResetPasswordArgs {
  @Field({ description: 'The `token` of the link in the password reset mail.' })
  @IsString()
  @MaxLength(TOKEN_MAX_LENGTH)
  token: string;

  @Field({ description: 'At least 8 characters, as at sign-up.' })
  @IsString()
  @MinLength(8)
  @MaxLength(1024)
  newPassword: string;
}

@ArgsType()
export class VerifyEmailArgs {
  @Field({ description: 'The `token` of the link in the verification mail.' })
  @IsString()
  @MaxLength(TOKEN_MAX_LENGTH)
  token: string;
}
