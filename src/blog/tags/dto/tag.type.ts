import { Field, ObjectType } from '@nestjs/graphql';

/** A tag: `postsCount` and `posts` are resolved by TagsResolver, for published posts only. */
@ObjectType({ description: 'A tag that published posts carry.' })
export class Tag {
  @Field({ description: 'The normalised slug, as Post.tags lists it.' })
  slug: string;
}
