import { Field, InputType } from '@nestjs/graphql';
import {
  IsEmail,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';

import { IsVisibleLine, Trim } from '../../common/validation';
import { CanonicalIdentifier } from '../../users/user-identifiers';

export const HANDLE_PATTERN = /^[a-z0-9_]{3,30}$/i;
export const HANDLE_RULE = 'handle must be 3-30 characters of a-z, 0-9 and _';
export const AVATAR_URL_OPTIONS = {
  protocols: ['http', 'https'],
  require_protocol: true,
  require_tld: false,
};

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

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Trim()
  @MaxLength(2048)
  @IsUrl(AVATAR_URL_OPTIONS, { message: 'avatar must be an http(s) URL' })
  avatar?: string | null;
}
