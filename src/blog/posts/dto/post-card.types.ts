import { Field, Int, ObjectType, registerEnumType } from '@nestjs/graphql';

import { Image } from '../../images/image.entity';

/** Where a post stands: a draft, waiting for its time, or out. */
export enum PostStatus {
  DRAFT = 'DRAFT',
  SCHEDULED = 'SCHEDULED',
  PUBLISHED = 'PUBLISHED',
}

registerEnumType(PostStatus, {
  name: 'PostStatus',
  description: 'Where a post stands.',
  valuesMap: {
    DRAFT: { description: 'Private to its author (and admins).' },
    SCHEDULED: {
      description: 'A draft that publishes itself at `scheduledAt`; private until then.',
    },
    PUBLISHED: { description: 'Public since `publishedAt`.' },
  },
});

/** A heading of a post's content, whose id is its anchor in `contentHtml`. */
@ObjectType({ description: "A heading of a post's content." })
export class TocEntry {
  @Field({ description: 'The id of the heading in `contentHtml`: link to `#<id>`.' })
  id: string;

  @Field(() => Int, { description: '1 for `#`, up to 6.' })
  level: number;

  @Field({ description: 'The heading as plain text.' })
  title: string;
}

/** The image at the top of a post and on its card. */
@ObjectType({ description: 'The image at the top of a post and on its card.' })
export class CoverImage {
  @Field({
    description:
      "An absolute URL: the one given, or the full-size file's of the uploaded image (`image`).",
  })
  url: string;

  @Field(() => String, { nullable: true })
  alt: string | null;

  @Field(() => String, { nullable: true })
  caption: string | null;

  @Field(() => Image, {
    nullable: true,
    description: 'The uploaded image, with its sizes and variants; null for a cover given by URL.',
  })
  image: Image | null;
}

/** What a page's head says of a post, each field falling back to the post's own. */
@ObjectType({
  description: "What a page's head says of a post; each field falls back to the post's own.",
})
export class PostSeo {
  @Field({ description: 'The SEO title, or the title.' })
  title: string;

  @Field({ description: 'The SEO description, or the excerpt.' })
  description: string;

  @Field(() => String, { nullable: true, description: "The cover's URL." })
  imageUrl: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The canonical URL as set, or `url`.',
  })
  canonicalUrl: string | null;
}
