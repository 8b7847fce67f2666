import { ArgsType, Field, ID } from '@nestjs/graphql';
import { IsOptional, IsString, Length } from 'class-validator';

import { IsVisibleText, Trim } from '../../common/validation';

/** How long a ban's reason may be. */
export const BAN_REASON_LENGTH = { min: 1, max: 500 };

@ArgsType()
export class BanUserArgs {
  @Field(() => ID)
  @IsString()
  userId: string;

  @Field({
    description: `Why, shown to the user: ${BAN_REASON_LENGTH.min}-${BAN_REASON_LENGTH.max} characters.`,
  })
  @Trim()
  @IsString()
  @Length(BAN_REASON_LENGTH.min, BAN_REASON_LENGTH.max)
  @IsVisibleText()
  reason: string;

  @Field(() => Date, {
    nullable: true,
    description: 'When the ban ends; null or absent: for good.',
  })
  @IsOptional()
  until?: Date | null;
}
