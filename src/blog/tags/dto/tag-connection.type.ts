import { Field, ObjectType } from '@nestjs/graphql';

import { Tag } from './tag.type';
import { PageInfo } from '../../posts/dto/post-connection.type';

@ObjectType()
export class TagEdge {
  @Field()
  cursor: string;

  @Field(() => Tag)
  node: Tag;
}

@ObjectType({ description: 'A Relay-style page of tags.' })
export class TagConnection {
  @Field(() => [TagEdge])
  edges: TagEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;
}
