import { ArgsType, Field, ID } from '@nestjs/graphql';
import { IsString, Length } from 'class-validator';

import { COMMENT_LENGTH } from './add-comment.args';
import { IsVisibleText, Trim } from '../../common/validation';

@ArgsType()
export class UpdateCommentArgs {
  @Field(() => ID)
  @IsString()
  id: string;

  @Field()
  @Trim()
  @IsString()
  @Length(COMMENT_LENGTH.min, COMMENT_LENGTH.max)
  @IsVisibleText()
  text: string;
}
