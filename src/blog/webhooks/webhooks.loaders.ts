import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhooksService } from './webhooks.service';
import type { BlogLoaders } from '../blog-loaders';
import { PagedLoaders } from '../common/loaders';

/** The webhooks' loaders of one request. */
export class WebhookLoaders {
  constructor(private readonly webhooks: WebhooksService) {}

  /** A page of each webhook's attempts: one statement a batch. */
  readonly deliveriesByWebhook = new PagedLoaders<WebhookDelivery>((ids, page) =>
    this.webhooks.deliveriesOf(ids, page),
  );
}

/** The request's webhook loaders, made on first use and forgotten after a mutation. */
export function webhookLoaders(loaders: BlogLoaders, webhooks: WebhooksService): WebhookLoaders {
  return loaders.featureLoader('webhooks', () => new WebhookLoaders(webhooks));
}
