import { ArgsType, Field, ID } from '@nestjs/graphql';
import { IsOptional, IsString, Length } from 'class-validator';

import { IsVisibleText, Trim } from '../../common/validation';

export const COMMENT_LENGTH = { min: 1, max: 5_000 };

@ArgsType()
export class AddCommentArgs {
  @Field(() => ID)
  @IsString()
  postId: string;

  @Field()
  @Trim()
  @IsString()
  @Length(COMMENT_LENGTH.min, COMMENT_LENGTH.max)
  @IsVisibleText()
  text: string;

  @Field(() => ID, {
    nullable: true,
    description:
      'The comment answered: the reply joins the thread of its top-level comment, and `inReplyTo` names it.',
  })
  @IsOptional()
  @IsString()
  parentId?: string | null;
}
