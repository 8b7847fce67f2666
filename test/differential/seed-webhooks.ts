import type { EntityManager } from 'typeorm';

import { ADA } from './seed';
import { DeliveryStatus, WebhookDelivery } from '../../src/blog/webhooks/webhook-delivery.entity';
import { WebhookEvent } from '../../src/blog/webhooks/webhook-event';
import { WebhookSecretBox } from '../../src/blog/webhooks/webhook-secrets';
import { Webhook } from '../../src/blog/webhooks/webhook.entity';

// The seed's ids are read when seedWebhooks runs, never when this module loads: seed.ts imports
// this file while it is itself loading.

/** An id of the seed's form (see seed.ts). */
const id = (n: string) => `01920000-0000-7000-8000-${n.padStart(12, '0')}`;

/**
 * Ada's webhooks. W1 is disabled (so that the corpus's other documents write it no deliveries),
 * with a log: WD1 succeeded, WD2 failed with its retry WD3 pending far ahead. W2 is enabled and
 * hears of new accounts. Both aim at 127.0.0.1, which the differential instances refuse (no
 * WEBHOOK_ALLOW_PRIVATE): each attempt fails at once, the same way on both, with no connection.
 */
export const W1 = id('a01');
export const W2 = id('a02');
export const WD1 = id('a11');
export const WD2 = id('a12');
export const WD3 = id('a13');

/** The signing secret of both, sealed with the suites' JWT_SECRET as the service seals it. */
export const SEED_WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** The tables of webhooks and their dump order, to put first in TABLES (deleted first). */
export const WEBHOOK_TABLES: [table: string, orderBy: string][] = [
  ['webhook_deliveries', 'webhook_id, event, attempt, created_at, id'],
  ['webhooks', 'id'],
];

/** Writes the webhooks of the seed and their log; for resetToSeed, after the users. */
export async function seedWebhooks(manager: EntityManager): Promise<void> {
  const at = (second: number) => new Date(Date.UTC(2025, 1, 1, 12, 0, second, 410 + second));
  const secret = new WebhookSecretBox(process.env.JWT_SECRET ?? '').seal(SEED_WEBHOOK_SECRET);
  const webhook = (webhookId: string, enabled: boolean, events: string, second: number) => ({
    id: webhookId,
    url: `https://127.0.0.1/hooks/${webhookId.slice(-3)}`,
    eventList: events,
    description: enabled ? null : 'The static site',
    secret,
    previousSecret: null,
    previousSecretUntil: null,
    enabled,
    consecutiveFailures: enabled ? 0 : 50,
    createdBy: ADA,
    createdAt: at(second),
    updatedAt: at(second),
  });
  await manager.insert(Webhook, [
    webhook(W1, false, ',POST_PUBLISHED,COMMENT_CREATED,', 0),
    webhook(W2, true, ',USER_CREATED,', 1),
  ]);
  const payload = JSON.stringify({
    type: 'post.published',
    version: 1,
    timestamp: at(2).toISOString(),
    data: { post: { id: id('101'), title: 'Hello world' } },
  });
  const attempt = (
    deliveryId: string,
    n: number,
    status: DeliveryStatus,
    fields: Partial<WebhookDelivery>,
  ) => ({
    id: deliveryId,
    webhookId: W1,
    messageId: 'msg_seeded-1',
    event: WebhookEvent.POST_PUBLISHED,
    payload,
    attempt: n,
    manual: false,
    status,
    nextAttemptAt: null,
    leaseUntil: null,
    responseCode: null,
    durationMs: null,
    responseSnippet: null,
    error: null,
    eventAt: at(2),
    createdAt: at(2 + n),
    attemptedAt: null,
    ...fields,
  });
  await manager.insert(WebhookDelivery, [
    attempt(WD1, 1, DeliveryStatus.SUCCEEDED, {
      responseCode: 204,
      durationMs: 31,
      attemptedAt: at(3),
      messageId: 'msg_seeded-0',
    }),
    attempt(WD2, 1, DeliveryStatus.FAILED, {
      responseCode: 503,
      durationMs: 12,
      responseSnippet: 'busy',
      attemptedAt: at(4),
      nextAttemptAt: new Date(Date.UTC(2099, 0, 1)),
    }),
    attempt(WD3, 2, DeliveryStatus.PENDING, { nextAttemptAt: new Date(Date.UTC(2099, 0, 1)) }),
  ]);
}
