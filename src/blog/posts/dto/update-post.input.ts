import { Field, InputType, PartialType, PickType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';

import {
  CreatePostInput,
  EXCERPT_INPUT_DESCRIPTION,
  IsPostExcerpt,
  IsPostSlug,
  IsTagList,
  SLUG_INPUT_DESCRIPTION,
  TAGS_INPUT_DESCRIPTION,
} from './create-post.input';
import { CoverImageInput, PostSeoInput } from './post-card.input';

/**
 * The fields to change, with the rules of a new post; those left out stay as they are. An
 * excerpt, cover or SEO set to null is removed.
 */
@InputType()
export class UpdatePostInput extends PartialType(
  PickType(CreatePostInput, ['title', 'content'] as const),
) {
  @Field(() => [String], {
    nullable: true,
    description: `${TAGS_INPUT_DESCRIPTION} Replaces all of the post's tags; [] removes them, leaving it out keeps them.`,
  })
  @IsTagList()
  tags?: string[] | null;

  @Field(() => String, {
    nullable: true,
    description: `${SLUG_INPUT_DESCRIPTION} The old slug stays in previousSlugs, and postBySlug still finds the post by it.`,
  })
  @IsPostSlug()
  slug?: string | null;

  @Field(() => String, {
    nullable: true,
    description: `${EXCERPT_INPUT_DESCRIPTION} Null removes it.`,
  })
  @IsPostExcerpt()
  excerpt?: string | null;

  @Field(() => CoverImageInput, { nullable: true, description: 'Null removes the cover.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CoverImageInput)
  coverImage?: CoverImageInput | null;

  @Field(() => PostSeoInput, { nullable: true, description: 'Null removes every SEO field.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => PostSeoInput)
  seo?: PostSeoInput | null;
}
