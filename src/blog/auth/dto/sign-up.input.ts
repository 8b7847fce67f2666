import { Field, InputType } from '@nestjs/graphql';
import {
  IsEmail,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';

import { IsVisibleLine, Trim } from '../../common/validation';
import { AVATAR_DESCRIPTION, IsAvatarUrl } from '../../users/avatar-url';
import { CanonicalIdentifier } from '../../users/user-identifiers';

export const HANDLE_PATTERN = /^[a-z0-9_]{3,30}$/i;
export const HANDLE_RULE = 'handle must be 3-30 characters of a-z, 0-9 and _';

@InputType()
export class SignUpInput {
  @Field()
  @Trim()
  @IsString()
  @Length(1, 100)
  @IsVisibleLine()
  name: string;

  @Field()
  @CanonicalIdentifier()
  @IsEmail()
  @MaxLength(254)
  email: string;

  @Field({ description: 'At least 8 characters.' })
  @IsString()
  @MinLength(8)
  @MaxLength(1024)
  password: string;

  @Field(() => String, { nullable: true, description: 'Derived from the name when left out.' })
  @IsOptional()
  @CanonicalIdentifier()
  @Matches(HANDLE_PATTERN, { message: HANDLE_RULE })
  handle?: string | null;

  @Field(() => String, { nullable: true, description: AVATAR_DESCRIPTION })
  @IsOptional()
  @IsAvatarUrl()
  avatar?: string | null;
}
