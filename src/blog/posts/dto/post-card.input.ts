import { Field, ID, InputType } from '@nestjs/graphql';
import { IsOptional, IsString, Length, MaxLength } from 'class-validator';

import { IsVisibleLine, IsVisibleText, Trim } from '../../common/validation';

/** The longest URL of a cover or a canonical address. */
export const MAX_URL_LENGTH = 2048;
/** The longest excerpt an author writes. */
export const EXCERPT_LENGTH = { min: 1, max: 300 };

@InputType({
  description:
    'A cover image: an uploaded image (`imageId`) or an image elsewhere (`url`), exactly one of the two.',
})
export class CoverImageInput {
  @Field(() => ID, {
    nullable: true,
    description:
      "An image of the post's author, uploaded with `POST /images`; the cover's URL is then the image's.",
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  imageId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'An absolute https URL, at most 2,048 characters.',
  })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, MAX_URL_LENGTH)
  url?: string | null;

  @Field(() => String, { nullable: true, description: 'At most 300 characters.' })
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(300)
  alt?: string | null;

  @Field(() => String, { nullable: true, description: 'At most 500 characters.' })
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(500)
  caption?: string | null;
}

@InputType({ description: "What a page's head says of a post; a field left out falls back." })
export class PostSeoInput {
  @Field(() => String, { nullable: true, description: 'At most 200 characters.' })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 200)
  @IsVisibleLine()
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'At most 500 characters.' })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 500)
  @IsVisibleText()
  description?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'An absolute http(s) URL, at most 2,048 characters.',
  })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, MAX_URL_LENGTH)
  canonicalUrl?: string | null;
}
