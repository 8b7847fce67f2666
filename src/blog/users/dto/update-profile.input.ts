import { Field, InputType } from '@nestjs/graphql';
import { IsOptional, IsString, IsUrl, Length, Matches, MaxLength } from 'class-validator';

import { AVATAR_URL_OPTIONS, HANDLE_PATTERN, HANDLE_RULE } from '../../auth/dto/sign-up.input';
import { IsVisibleLine, Trim, TrimToNull } from '../../common/validation';
import { CanonicalIdentifier } from '../user-identifiers';

/** The profile fields to change; those left out stay. An empty avatar removes the picture. */
@InputType()
export class UpdateProfileInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 100)
  @IsVisibleLine()
  name?: string | null;

  @Field(() => String, { nullable: true, description: '3-30 of a-z, 0-9 and _; case-insensitive.' })
  @IsOptional()
  @CanonicalIdentifier()
  @Matches(HANDLE_PATTERN, { message: HANDLE_RULE })
  handle?: string | null;

  @Field(() => String, { nullable: true, description: 'An http(s) URL; empty or null removes it.' })
  @IsOptional()
  @TrimToNull()
  @MaxLength(2048)
  @IsUrl(AVATAR_URL_OPTIONS, { message: 'avatar must be an http(s) URL' })
  avatar?: string | null;
}
