import { Field, ObjectType } from '@nestjs/graphql';

import { PageInfo } from '../../posts/dto/post-connection.type';
import { WebhookDelivery } from '../webhook-delivery.entity';
import { Webhook } from '../webhook.entity';

@ObjectType()
export class WebhookEdge {
  @Field()
  cursor: string;

  @Field(() => Webhook)
  node: Webhook;
}

@ObjectType({ description: 'A Relay-style page of webhooks, oldest first.' })
export class WebhookConnection {
  @Field(() => [WebhookEdge])
  edges: WebhookEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;

  /** Resolved by WebhookConnectionResolver, only when selected. */
  totalCount: number;
}

@ObjectType()
export class WebhookDeliveryEdge {
  @Field()
  cursor: string;

  @Field(() => WebhookDelivery)
  node: WebhookDelivery;
}

@ObjectType({ description: "A Relay-style page of a webhook's attempts, newest first." })
export class WebhookDeliveryConnection {
  @Field(() => [WebhookDeliveryEdge])
  edges: WebhookDeliveryEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;
}

@ObjectType({
  description:
    'A webhook and its signing secret, shown this once: keep it where the receiver reads it.',
})
export class WebhookWithSecret {
  @Field(() => Webhook)
  webhook: Webhook;

  @Field({
    description:
      'The Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. Give it as it is to the `standardwebhooks` library.',
  })
  secret: string;
}
