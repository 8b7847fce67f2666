import { Field, ObjectType } from '@nestjs/graphql';

import { PageInfo } from '../../posts/dto/post-connection.type';
import { ModerationLogEntry } from '../moderation-log.entity';

@ObjectType()
export class ModerationLogEdge {
  @Field()
  cursor: string;

  @Field(() => ModerationLogEntry)
  node: ModerationLogEntry;
}

@ObjectType({ description: 'A Relay-style page of the moderation log, newest first.' })
export class ModerationLogConnection {
  @Field(() => [ModerationLogEdge])
  edges: ModerationLogEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;

  /** Resolved by ModerationLogResolver, only when selected. */
  totalCount: number;
}
