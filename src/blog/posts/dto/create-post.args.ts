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
import { CoverImageInput, PostSeoInput } from './post-card.input';
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
export function readCreatePostForm(args: CreatePostArgs): CreatePostForm {
  const flat =
    args.title != null || args.content != null || args.authorId != null || args.tags != null;
  if (args.input && flat) {
    throw badUserInput('Use either input or title/content/authorId/tags, not both.', 'input');
  }
  if (args.input) {
    const { title, content, tags, slug, excerpt, coverImage, seo, publishAt } = args.input;
    const publish = args.input.publish ?? true;
    return { title, content, tags, slug, excerpt, coverImage, seo, publishAt, publish };
  }
  if (!flat) throw badUserInput('createPost needs input, or title and content.', 'input');
  if (args.title == null) throw badUserInput('title is required.', 'title');
  if (args.content == null) throw badUserInput('content is required.', 'content');
  const { authorId, tags } = args;
  return { title: args.title, content: args.content, authorId, tags, publish: true };
}

/** What either form of `createPost` asks for. */
export interface CreatePostForm {
  title: string;
  content: string;
  publish: boolean;
  authorId?: string | null;
  tags?: string[] | null;
  slug?: string | null;
  excerpt?: string | null;
  coverImage?: CoverImageInput | null;
  seo?: PostSeoInput | null;
  publishAt?: Date | null;
}
