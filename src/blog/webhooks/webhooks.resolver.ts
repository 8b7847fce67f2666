import { Args, ID, Int, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';

import { CreateWebhookInput } from './dto/create-webhook.input';
import { UpdateWebhookInput } from './dto/update-webhook.input';
import {
  WebhookConnection,
  WebhookDeliveryConnection,
  WebhookWithSecret,
} from './dto/webhook-connection.type';
import { WebhookDelivery } from './webhook-delivery.entity';
import { Webhook } from './webhook.entity';
import { webhookLoaders } from './webhooks.loaders';
import { WebhooksService } from './webhooks.service';
import { CurrentViewer, Loaders } from '../auth/viewer.decorator';
import { BlogLoaders } from '../blog-loaders';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { ConnectionArgs, cursorGroups, opaqueCursor, toPage } from '../common/pagination';
import { isUuid } from '../common/uuid';
import { inputValidationPipe } from '../common/validation';
import { COUNT_COMPLEXITY } from '../limits/operation-cost';
import { Viewer } from '../users/viewer';

const WEBHOOK_CURSOR = /^webhook:([0-9a-fA-F-]{36})$/;
const DELIVERY_CURSOR = /^delivery:([0-9a-fA-F-]{36})$/;
const BAD_CURSOR = 'after must be an endCursor of a previous page.';

/** The id in a cursor of `pattern`; BAD_USER_INPUT for anything else. */
function afterId(after: string | null | undefined, pattern: RegExp): string | null {
  if (!after) return null;
  const [id] = cursorGroups(after, pattern, BAD_CURSOR, ([found]) => isUuid(found!));
  return id!.toLowerCase();
}

/** Webhooks and their delivery logs, for admins alone (others: FORBIDDEN). */
@Resolver(() => Webhook)
@BlogResolverEnhancers()
export class WebhooksResolver {
  constructor(private readonly webhooksService: WebhooksService) {}

  @Query(() => WebhookConnection, {
    description: 'The webhooks, oldest first. Admins only (others: FORBIDDEN).',
  })
  async webhooks(
    @Args() args: ConnectionArgs,
    @CurrentViewer() viewer: Viewer,
  ): Promise<WebhookConnection> {
    const page = toPage({ first: args.first, after: afterId(args.after, WEBHOOK_CURSOR) });
    const { webhooks, hasNextPage } = await this.webhooksService.page(viewer, page);
    const edges = webhooks.map((node) => ({ cursor: opaqueCursor(`webhook:${node.id}`), node }));
    return {
      edges,
      pageInfo: { hasNextPage, endCursor: edges.at(-1)?.cursor ?? null },
      totalCount: 0,
    };
  }

  @Query(() => Webhook, {
    description: 'One webhook: NOT_FOUND when there is none. Admins only (others: FORBIDDEN).',
  })
  webhook(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.webhooksService.findOne(viewer, id);
  }

  @BlogMutation(() => WebhookWithSecret, {
    description:
      'Makes a webhook, enabled, and answers its signing secret: the only time it is shown. Admins only.',
  })
  createWebhook(
    @Args('input', inputValidationPipe) input: CreateWebhookInput,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.webhooksService.create(viewer, input);
  }

  @BlogMutation(() => Webhook, { description: 'Changes the fields given. Admins only.' })
  updateWebhook(
    @Args('id', { type: () => ID }) id: string,
    @Args('input', inputValidationPipe) input: UpdateWebhookInput,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.webhooksService.update(viewer, id, input);
  }

  @BlogMutation(() => ID, {
    description: 'Deletes a webhook with its delivery log and pending attempts. Admins only.',
  })
  deleteWebhook(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.webhooksService.delete(viewer, id);
  }

  @BlogMutation(() => WebhookWithSecret, {
    description:
      'A new signing secret, shown this once. For 24 hours the old one signs too (a second signature in `webhook-signature`), while the receiver moves over. Admins only.',
  })
  rotateWebhookSecret(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.webhooksService.rotate(viewer, id);
  }

  @BlogMutation(() => WebhookDelivery, {
    description:
      "Sends an attempt's event again, once and at once: the same body and `webhook-id`, a new signature. Answers the new attempt, PENDING; its outcome shows in `deliveries`. Admins only.",
  })
  redeliverWebhook(
    @Args('deliveryId', { type: () => ID }) deliveryId: string,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.webhooksService.redeliver(viewer, deliveryId);
  }

  @BlogMutation(() => WebhookDelivery, {
    description:
      'Sends a `ping` event to the webhook, once and at once, whatever its events and even when it is disabled. Answers the attempt, PENDING; its outcome shows in `deliveries`. Admins only.',
  })
  testWebhook(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.webhooksService.test(viewer, id);
  }

  @ResolveField(() => WebhookDeliveryConnection, {
    description:
      'Its attempts, newest first: pending ones (the outbox) and those made, with their outcome. Kept WEBHOOK_LOG_DAYS days.',
  })
  async deliveries(
    @Parent() webhook: Webhook,
    @Args() args: ConnectionArgs,
    @Loaders() loaders: BlogLoaders,
  ): Promise<WebhookDeliveryConnection> {
    const page = toPage({ first: args.first, after: afterId(args.after, DELIVERY_CURSOR) });
    const found = await webhookLoaders(loaders, this.webhooksService)
      .deliveriesByWebhook.for({ ...page, first: page.first + 1 })
      .load(webhook.id);
    const edges = found
      .slice(0, page.first)
      .map((node) => ({ cursor: opaqueCursor(`delivery:${node.id}`), node }));
    return {
      edges,
      pageInfo: { hasNextPage: found.length > page.first, endCursor: edges.at(-1)?.cursor ?? null },
    };
  }
}

/** `totalCount` of the webhooks. */
@Resolver(() => WebhookConnection)
export class WebhookConnectionResolver {
  constructor(private readonly webhooksService: WebhooksService) {}

  @ResolveField(() => Int, { description: 'Every webhook.', complexity: COUNT_COMPLEXITY })
  totalCount(@Parent() _connection: WebhookConnection): Promise<number> {
    return this.webhooksService.count();
  }
}
