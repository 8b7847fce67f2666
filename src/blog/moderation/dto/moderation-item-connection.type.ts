import { Field, ObjectType } from '@nestjs/graphql';

import { PageInfo } from '../../posts/dto/post-connection.type';
import { ModerationItem } from '../moderation-queue-item.entity';
import { ReportStatus } from '../reports.enums';

@ObjectType()
export class ModerationItemEdge {
  @Field()
  cursor: string;

  @Field(() => ModerationItem)
  node: ModerationItem;
}

@ObjectType({ description: 'A Relay-style page of the moderation queue.' })
export class ModerationItemConnection {
  @Field(() => [ModerationItemEdge])
  edges: ModerationItemEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;

  /** Resolved by ModerationItemConnectionResolver, only when selected. */
  totalCount: number;

  /** The items of the page have it: what totalCount counts. */
  status: ReportStatus;
}
