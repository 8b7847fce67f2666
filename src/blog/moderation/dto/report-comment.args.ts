import { ArgsType, Field, ID } from '@nestjs/graphql';
import { IsEnum, IsOptional, IsString, MaxLength } from 'class-validator';

import { IsVisibleText, TrimToNull } from '../../common/validation';
import { REPORT_NOTE_LENGTH } from '../reports.entity';
import { ReportReason } from '../reports.enums';

@ArgsType()
export class ReportCommentArgs {
  @Field(() => ID)
  @IsString()
  commentId: string;

  @Field(() => ReportReason)
  @IsEnum(ReportReason)
  reason: ReportReason;

  @Field(() => String, {
    nullable: true,
    description: `What the reporter adds for the moderators: trimmed, at most ${REPORT_NOTE_LENGTH} characters.`,
  })
  @TrimToNull()
  @IsOptional()
  @IsString()
  @MaxLength(REPORT_NOTE_LENGTH)
  @IsVisibleText()
  note?: string | null;
}
