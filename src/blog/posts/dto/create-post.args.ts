import { ArgsType, Field, ID } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';

import {
  CreatePostInput,
  IsPostContent,
  IsPostTitle,
  IsTagList,
  TAGS_INPUT_DESCRIPTION,
} from './create-post.input';

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
  @IsPostTitle()
  title?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsPostContent()
  content?: string | null;

  @Field(() => ID, {
    nullable: true,
    description: "The author: the viewer's own id (admins may name another).",
  })
  @IsOptional()
  @IsString()
  authorId?: string | null;

  @Field(() => [String], { nullable: true, description: TAGS_INPUT_DESCRIPTION })
  @IsTagList()
  tags?: string[] | null;
}
