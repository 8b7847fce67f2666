import { Field, ObjectType } from '@nestjs/graphql';

import { PageInfo } from '../../posts/dto/post-connection.type';
import { Notification } from '../notification.entity';

@ObjectType()
export class NotificationEdge {
  @Field()
  cursor: string;

  @Field(() => Notification)
  node: Notification;
}

@ObjectType({ description: "A Relay-style page of the viewer's notifications, newest first." })
export class NotificationConnection {
  @Field(() => [NotificationEdge])
  edges: NotificationEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;
}
