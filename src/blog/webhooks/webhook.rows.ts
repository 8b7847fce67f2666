import { DeliveryStatus, WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEvent } from './webhook-event';
import { Webhook } from './webhook.entity';
import { DeliveryRow, WebhookRow } from './webhooks.sql';
import { toDate } from '../common/sql';

/** A webhook's events as stored: `,A,B,`, so that `,A,` finds its subscribers. */
export function storedEvents(events: readonly WebhookEvent[]): string {
  return `,${events.join(',')},`;
}

export function toWebhook(row: WebhookRow): Webhook {
  return Object.assign(new Webhook(), {
    id: row.id,
    url: row.url,
    eventList: row.events,
    events: row.events.split(',').filter(Boolean) as WebhookEvent[],
    description: row.description,
    secret: row.secret,
    previousSecret: row.previousSecret,
    previousSecretUntil: toDate(row.previousSecretUntil),
    enabled: Boolean(row.enabled),
    consecutiveFailures: Number(row.consecutiveFailures),
    createdBy: row.createdBy,
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  });
}

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return Object.assign(new WebhookDelivery(), {
    id: row.id,
    webhookId: row.webhookId,
    messageId: row.messageId,
    event: row.event as WebhookEvent,
    payload: row.payload,
    attempt: Number(row.attempt),
    manual: Boolean(row.manual),
    status: row.status as DeliveryStatus,
    nextAttemptAt: toDate(row.nextAttemptAt),
    leaseUntil: toDate(row.leaseUntil),
    responseCode: row.responseCode,
    durationMs: row.durationMs,
    responseSnippet: row.responseSnippet,
    error: row.error,
    eventAt: toDate(row.eventAt),
    createdAt: toDate(row.createdAt),
    attemptedAt: toDate(row.attemptedAt),
  });
}
