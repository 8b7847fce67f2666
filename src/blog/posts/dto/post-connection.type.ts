import { Field, ObjectType } from '@nestjs/graphql';

import { Post } from '../post.entity';

@ObjectType()
export class PageInfo {
  @Field()
  hasNextPage: boolean;

  @Field(() => String, { nullable: true })
  endCursor: string | null;
}

@ObjectType()
export class PostEdge {
  @Field()
  cursor: string;

  @Field(() => Post)
  node: Post;
}

@ObjectType({ description: 'A Relay-style page of published posts.' })
export class PostConnection {
  @Field(() => [PostEdge])
  edges: PostEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;

  /** Resolved by PostConnectionResolver, only when selected. */
  totalCount: number;
}
