import { Field, ID, InputType } from '@nestjs/graphql';
import { IsEmail, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';

import { HANDLE_PATTERN, HANDLE_RULE } from '../../auth/dto/sign-up.input';
import { IsVisibleLine, Trim, TrimToNull } from '../../common/validation';
import { AVATAR_DESCRIPTION, IsAvatarUrl } from '../avatar-url';
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

  @Field(() => String, {
    nullable: true,
    description: `${AVATAR_DESCRIPTION} Empty or null removes it.`,
  })
  @IsOptional()
  @TrimToNull()
  @IsAvatarUrl()
  avatar?: string | null;

  @Field(() => ID, {
    nullable: true,
    description:
      'One of your images (`POST /images`) as your picture: `avatar` is then its 320-pixel-wide copy. Null removes the picture; not with `avatar`.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  avatarImageId?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'A new address: needs `currentPassword`, and stays unverified until the link mailed to it is followed.',
  })
  @IsOptional()
  @CanonicalIdentifier()
  @IsEmail()
  @MaxLength(254)
  email?: string | null;

  @Field(() => String, { nullable: true, description: 'The current password: to change `email`.' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  currentPassword?: string | null;
}
