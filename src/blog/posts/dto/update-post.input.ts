import { Field, InputType } from '@nestjs/graphql';
import { IsOptional, IsString, Length } from 'class-validator';
import { Trim } from '../../common/validation';
import { CONTENT_LENGTH, TITLE_LENGTH } from './create-post.input';

/** The fields to change; those left out stay as they are. */
@InputType()
export class UpdatePostInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(TITLE_LENGTH.min, TITLE_LENGTH.max)
  title?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(CONTENT_LENGTH.min, CONTENT_LENGTH.max)
  content?: string | null;
}
