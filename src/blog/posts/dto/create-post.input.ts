import { applyDecorators } from '@nestjs/common';
import { Field, InputType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDate,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { CoverImageInput, EXCERPT_LENGTH, PostSeoInput } from './post-card.input';
import { IsVisibleLine, IsVisibleText, Trim } from '../../common/validation';

export const TITLE_LENGTH = { min: 1, max: 200 };
export const CONTENT_LENGTH = { min: 1, max: 50_000 };

/**
 * A list of tags as sent, before the tag rules (see tags/tag-slug.ts) read it: bounded, so that
 * a huge list or tag is refused before it is normalised. Duplicates may still collapse to five.
 */
export const IsTagList = () =>
  applyDecorators(
    IsOptional(),
    IsArray(),
    ArrayMaxSize(20),
    IsString({ each: true }),
    MaxLength(200, { each: true }),
  );

/** The description of the `tags` filter of lists of posts. */
export const TAGS_FILTER_DESCRIPTION =
  'Only the posts that have all of these tags (at most 5); each is read as a tag is written.';

/** The description of a post's `tags` input. */
export const TAGS_INPUT_DESCRIPTION =
  'Up to 5 tags, stored as slugs: lower case, Unicode normalised (NFKC), spaces and underscores ' +
  'as dashes, letters, digits and dashes only; tags with the same slug count once.';

/** The description of a post's `slug` input. */
export const SLUG_INPUT_DESCRIPTION =
  "The post's address in URLs, unique across posts; made from the title when left out. " +
  'Read as a slug is made (lower case, dashes, at most 80 characters); a slug another post has, or had, is CONFLICT.';

/** The description of a post's `excerpt` input. */
export const EXCERPT_INPUT_DESCRIPTION =
  'A summary for cards and feeds, at most 300 characters; without one, the excerpt is the start of the text.';

/** A slug as an author asks for it; the service makes it a slug (see posts/post-slug.ts). */
export const IsPostSlug = () => applyDecorators(IsOptional(), Trim(), IsString(), Length(1, 200));

/** An author's excerpt: trimmed, then 1-300 characters, some of them visible. */
export const IsPostExcerpt = () =>
  applyDecorators(
    IsOptional(),
    Trim(),
    IsString(),
    Length(EXCERPT_LENGTH.min, EXCERPT_LENGTH.max),
    IsVisibleText(),
  );

/** A post title: trimmed, then 1-200 characters of one line, some of them visible. */
export const IsPostTitle = () =>
  applyDecorators(Trim(), IsString(), Length(TITLE_LENGTH.min, TITLE_LENGTH.max), IsVisibleLine());

/**
 * Post content: trimmed, then 1-50,000 characters, some of them visible, with no control
 * character but tab and line breaks; stored as given (no HTML stripping).
 */
export const IsPostContent = () =>
  applyDecorators(
    Trim(),
    IsString(),
    Length(CONTENT_LENGTH.min, CONTENT_LENGTH.max),
    IsVisibleText(),
  );

@InputType()
export class CreatePostInput {
  @Field()
  @IsPostTitle()
  title: string;

  @Field()
  @IsPostContent()
  content: string;

  @Field(() => Boolean, {
    nullable: true,
    defaultValue: true,
    description: 'False keeps the post as a draft.',
  })
  @IsOptional()
  @IsBoolean()
  publish?: boolean | null;

  @Field(() => [String], { nullable: true, description: TAGS_INPUT_DESCRIPTION })
  @IsTagList()
  tags?: string[] | null;

  @Field(() => String, { nullable: true, description: SLUG_INPUT_DESCRIPTION })
  @IsPostSlug()
  slug?: string | null;

  @Field(() => String, { nullable: true, description: EXCERPT_INPUT_DESCRIPTION })
  @IsPostExcerpt()
  excerpt?: string | null;

  @Field(() => CoverImageInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CoverImageInput)
  coverImage?: CoverImageInput | null;

  @Field(() => PostSeoInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => PostSeoInput)
  seo?: PostSeoInput | null;

  @Field(() => Date, {
    nullable: true,
    description:
      'Schedules the post for this time, in the future: it stays a draft until then, and then publishes itself. Leaves `publish` unread.',
  })
  @IsOptional()
  @IsDate()
  publishAt?: Date | null;
}
