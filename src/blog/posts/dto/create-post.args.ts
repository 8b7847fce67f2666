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
import { badUserInput } from '../../common/errors';

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

/**
 * The fields of either form of `createPost`; BAD_USER_INPUT when the forms are mixed or a required
 * field of the flat form is missing. The `input` form publishes unless told otherwise.
 */
export function readCreatePostForm(args: CreatePostArgs) {
  const flat =
    args.title != null || args.content != null || args.authorId != null || args.tags != null;
  if (args.input && flat) {
    throw badUserInput('Use either input or title/content/authorId/tags, not both.', 'input');
  }
  if (args.input) return { ...args.input, authorId: null, publish: args.input.publish ?? true };
  if (!flat) throw badUserInput('createPost needs input, or title and content.', 'input');
  if (args.title == null) throw badUserInput('title is required.', 'title');
  if (args.content == null) throw badUserInput('content is required.', 'content');
  const { authorId, tags } = args;
  return { title: args.title, content: args.content, authorId, tags, publish: true };
}
