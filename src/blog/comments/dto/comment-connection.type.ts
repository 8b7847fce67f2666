import { Field, ObjectType } from '@nestjs/graphql';

import { PageInfo } from '../../posts/dto/post-connection.type';
import { Comment } from '../comment.entity';

@ObjectType()
export class CommentEdge {
  @Field()
  cursor: string;

  @Field(() => Comment)
  node: Comment;
}

@ObjectType({ description: "A Relay-style page of a post's threads, or of a thread's replies." })
export class CommentConnection {
  @Field(() => [CommentEdge])
  edges: CommentEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;

  /** Resolved by CommentConnectionResolver, only when selected. */
  totalCount: number;

  /** Counts every item of the connection, on every page. */
  countAll: () => Promise<number>;
}
