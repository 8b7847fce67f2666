import { Inject, Injectable } from '@nestjs/common';

import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookDispatcher } from './webhook-dispatcher';
import { SUBSCRIBABLE_EVENTS, WebhookEvent } from './webhook-event';
import { WebhookOptionsResolved, WEBHOOK_OPTIONS } from './webhook-options.provider';
import { newMessageId } from './webhook-outbox';
import { payloadOf } from './webhook-payloads';
import { newWebhookSecret, WebhookSecretBox } from './webhook-secrets';
import { webhookUrl } from './webhook-url';
import { Webhook } from './webhook.entity';
import { storedEvents, toDelivery, toWebhook } from './webhook.rows';
import { webhookDeliveriesSql, webhooksSql } from './webhooks.sql';
import { badUserInput, forbidden, notFound, unauthenticated } from '../common/errors';
import { groupBy } from '../common/group-by';
import { Page } from '../common/pagination';
import { PreparedStatements, Sql } from '../common/sql';
import { isUuid, newId } from '../common/uuid';
import { isAdmin } from '../users/roles';
import { Viewer } from '../users/viewer';

/** How long the secret a rotation replaced keeps signing beside the new one. */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

/** A webhook's fields as an admin gives them; each may be left out of an update. */
export interface WebhookChanges {
  url?: string | null;
  events?: WebhookEvent[] | null;
  description?: string | null;
  enabled?: boolean | null;
}

/** A webhook with its signing secret, shown once: when it is made, or rotated. */
export interface WebhookWithSecretValue {
  webhook: Webhook;
  secret: string;
}

/** A page of webhooks, plus whether more follow. */
export interface WebhooksPage {
  webhooks: Webhook[];
  hasNextPage: boolean;
}

/**
 * Webhooks, for admins alone: making, changing, deleting them and rotating their secrets, their
 * delivery logs, a redelivery of an event and a test (`PING`). The attempts these write are
 * made by WebhookDispatcher, like those of events.
 */
@Injectable()
export class WebhooksService {
  private readonly statements: PreparedStatements<typeof webhooksSql>;
  private readonly deliveries: PreparedStatements<typeof webhookDeliveriesSql>;
  private readonly box: WebhookSecretBox;

  constructor(
    private readonly sql: Sql,
    private readonly dispatcher: WebhookDispatcher,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptionsResolved,
  ) {
    this.statements = sql.prepare(webhooksSql);
    this.deliveries = sql.prepare(webhookDeliveriesSql);
    this.box = new WebhookSecretBox(options.jwtSecret);
  }

  /** A new webhook, enabled, and its secret (`whsec_...`), which is never shown again. */
  async create(viewer: Viewer, input: WebhookChanges): Promise<WebhookWithSecretValue> {
    const admin = adminOf(viewer, 'manage webhooks');
    const url = this.checkedUrl(input.url ?? '');
    const events = subscribedEvents(input.events ?? [], 'input.events');
    const secret = newWebhookSecret();
    const row = {
      id: newId(),
      url,
      events: storedEvents(events),
      description: input.description ?? null,
      secret: this.box.seal(secret),
      createdBy: admin.id,
      createdAt: new Date(),
    };
    await this.sql.run(this.statements.insert, row);
    return { webhook: await this.stored(row.id), secret };
  }

  /** Changes the fields given; enabling a disabled webhook sets its failed events back to 0. */
  async update(viewer: Viewer, id: string, input: WebhookChanges): Promise<Webhook> {
    adminOf(viewer, 'manage webhooks');
    const webhook = await this.find(id);
    const url = input.url == null ? webhook.url : this.checkedUrl(input.url);
    const events =
      input.events == null ? webhook.events : subscribedEvents(input.events, 'input.events');
    const description = input.description === undefined ? webhook.description : input.description;
    const updatedAt = new Date();
    await this.sql.transaction(async (sql) => {
      const changes = { id: webhook.id, url, events: storedEvents(events), description, updatedAt };
      await sql.run(this.statements.update, changes);
      if (input.enabled === true)
        await sql.run(this.statements.enable, { id: webhook.id, updatedAt });
      if (input.enabled === false) {
        await sql.run(this.statements.disable, { id: webhook.id, updatedAt });
      }
    });
    return this.stored(webhook.id);
  }

  /** Deletes a webhook with its log and its pending attempts; returns its id. */
  async delete(viewer: Viewer, id: string): Promise<string> {
    adminOf(viewer, 'manage webhooks');
    const webhook = await this.find(id);
    await this.sql.run(this.statements.delete, { id: webhook.id });
    return webhook.id;
  }

  /**
   * A new secret, shown once. The old one keeps signing beside it (a second signature in
   * `webhook-signature`) for {@link PREVIOUS_SECRET_MS}, while the receiver moves to the new one.
   */
  async rotate(viewer: Viewer, id: string): Promise<WebhookWithSecretValue> {
    adminOf(viewer, 'manage webhooks');
    const webhook = await this.find(id);
    const secret = newWebhookSecret();
    const updatedAt = new Date();
    await this.sql.run(this.statements.rotate, {
      id: webhook.id,
      secret: this.box.seal(secret),
      previousUntil: new Date(updatedAt.getTime() + PREVIOUS_SECRET_MS),
      updatedAt,
    });
    return { webhook: await this.stored(webhook.id), secret };
  }

  /** One webhook; NOT_FOUND when none. */
  async findOne(viewer: Viewer, id: string): Promise<Webhook> {
    adminOf(viewer, 'see webhooks');
    return this.find(id);
  }

  /** A page of webhooks, oldest first. */
  async page(viewer: Viewer, page: Page): Promise<WebhooksPage> {
    adminOf(viewer, 'see webhooks');
    if (page.first === 0) return { webhooks: [], hasNextPage: false };
    const parameters = { first: page.first + 1 };
    const rows = page.after
      ? await this.sql.all(this.statements.pageAfter, { ...parameters, after: page.after })
      : await this.sql.all(this.statements.page, parameters);
    return {
      webhooks: rows.slice(0, page.first).map(toWebhook),
      hasNextPage: rows.length > page.first,
    };
  }

  async count(): Promise<number> {
    return Number((await this.sql.one(this.statements.count, {}))?.count ?? 0);
  }

  /** A page of each webhook's attempts, newest first, in one statement. */
  async deliveriesOf(
    webhookIds: readonly string[],
    page: Page,
  ): Promise<Map<string, WebhookDelivery[]>> {
    if (page.first === 0 || webhookIds.length === 0) return groupBy(webhookIds, [], () => '');
    const parameters = { keys: webhookIds, first: page.first };
    const rows = page.after
      ? await this.sql.all(this.deliveries.pagesOfAfter, { ...parameters, after: page.after })
      : await this.sql.all(this.deliveries.pagesOf, parameters);
    return groupBy(webhookIds, rows.map(toDelivery), (delivery) => delivery.webhookId);
  }

  /**
   * Sends the event of attempt `deliveryId` again, once, as its next attempt: the same body and
   * `webhook-id`, a new timestamp and signature. Even to a disabled webhook; never retried.
   */
  async redeliver(viewer: Viewer, deliveryId: string): Promise<WebhookDelivery> {
    adminOf(viewer, 'redeliver webhooks');
    const of = isUuid(deliveryId) ? deliveryId.toLowerCase() : null;
    const found = of && (await this.sql.one(this.deliveries.byId, { id: of }));
    if (!found) throw notFound('Webhook delivery');
    const id = newId();
    await this.sql.run(this.deliveries.redeliver, { id, of: found.id, now: new Date() });
    return this.pending(id);
  }

  /** Sends a `ping` to the webhook, once: whatever its events, even when it is disabled. */
  async test(viewer: Viewer, webhookId: string): Promise<WebhookDelivery> {
    adminOf(viewer, 'test webhooks');
    const webhook = await this.find(webhookId);
    const now = new Date();
    const id = newId();
    await this.sql.run(this.deliveries.insertManual, {
      id,
      webhookId: webhook.id,
      messageId: newMessageId(),
      event: WebhookEvent.PING,
      payload: payloadOf(WebhookEvent.PING, now, { webhookId: webhook.id }),
      now,
    });
    return this.pending(id);
  }

  /** The attempt just written, as stored, once the worker has been asked to make it. */
  /** `raw` as a webhook's stored URL under this module's rules (see webhookUrl). */
  private checkedUrl(raw: string): string {
    const { allowHttp, allowPrivateAddresses } = this.options;
    return webhookUrl(raw, allowHttp, 'input.url', allowPrivateAddresses);
  }

  private async pending(id: string): Promise<WebhookDelivery> {
    const row = await this.sql.one(this.deliveries.byId, { id });
    if (!row) throw notFound('Webhook delivery');
    this.dispatcher.wake();
    return toDelivery(row);
  }

  /** The webhook `id` names; NOT_FOUND when none (or not an id). */
  private async find(id: string): Promise<Webhook> {
    const row = isUuid(id)
      ? await this.sql.one(this.statements.byId, { id: id.toLowerCase() })
      : null;
    if (!row) throw notFound('Webhook');
    return toWebhook(row);
  }

  private async stored(id: string): Promise<Webhook> {
    const row = await this.sql.one(this.statements.byId, { id });
    if (!row) throw notFound('Webhook');
    return toWebhook(row);
  }
}

/** UNAUTHENTICATED or FORBIDDEN unless `viewer` is an admin. */
function adminOf(viewer: Viewer, what: string): NonNullable<Viewer> {
  if (!viewer) throw unauthenticated(`You must be signed in to ${what}.`);
  if (!isAdmin(viewer)) throw forbidden(`Only admins ${what}.`);
  return viewer;
}

/** The events to store, in their order, each once; BAD_USER_INPUT for none, or for PING. */
function subscribedEvents(events: readonly WebhookEvent[], field: string): WebhookEvent[] {
  if (events.includes(WebhookEvent.PING)) {
    throw badUserInput('PING is not a subscription: testWebhook sends one.', field);
  }
  const chosen = SUBSCRIBABLE_EVENTS.filter((event) => events.includes(event));
  if (chosen.length === 0) throw badUserInput(`${field} must name at least one event.`, field);
  return chosen;
}
