import { ArgsType, Field, ID } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import { Trim } from '../../common/validation';
import { CONTENT_LENGTH, CreatePostInput, TITLE_LENGTH } from './create-post.input';

/**
 * `createPost` takes one of two forms: `input: {title, content, publish}`, or the flat
 * `title, content, authorId` of the original server schema.
 */
@ArgsType()
export class CreatePostArgs {
  @Field(() => CreatePostInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CreatePostInput)
  input?: CreatePostInput | null;

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

  @Field(() => ID, {
    nullable: true,
    description: "The author: the viewer's own id (admins may name another).",
  })
  @IsOptional()
  @IsString()
  authorId?: string | null;
}
