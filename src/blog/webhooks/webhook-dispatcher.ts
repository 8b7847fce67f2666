import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { Webhook as StandardWebhook } from 'standardwebhooks';

import { nextAttemptAt, RetryRule } from './backoff';
import { DeliveryStatus, WebhookDelivery } from './webhook-delivery.entity';
import { WebhookOptionsResolved, WEBHOOK_OPTIONS } from './webhook-options.provider';
import { WebhookOutbox } from './webhook-outbox';
import { WebhookSecretBox } from './webhook-secrets';
import { sendDelivery, SendOutcome, SendPolicy } from './webhook-sender';
import { Webhook } from './webhook.entity';
import { toDelivery, toWebhook } from './webhook.rows';
import { webhookDeliveriesSql, webhooksSql } from './webhooks.sql';
import { BackgroundDrain } from '../common/background-drain';
import { messageOf } from '../common/errors';
import { PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { newId } from '../common/uuid';
import { NotificationKind } from '../notifications/notification-kind';
import { NotificationsService } from '../notifications/notifications.service';

/** How often an instance looks for attempts that have come due (retries, other instances' claims). */
export const DELIVERY_POLL_MS = 1_000;
/** The most attempts one claim takes. */
const CLAIM_BATCH = 32;
/** How much longer than an attempt's time limit a claim lasts. */
const LEASE_MARGIN_MS = 5_000;
/** How often the log is pruned. */
const PRUNE_EVERY_MS = 3_600_000;
/** The most rows one statement of pruning deletes. */
const PRUNE_BATCH = 1_000;
const DAY_MS = 86_400_000;

const UNREADABLE_SECRET =
  'The signing secret does not open: JWT_SECRET has changed since it was made. Rotate it (rotateWebhookSecret).';

/** How an attempt that was not sent ends. */
const notSent = (error: string): SendOutcome => ({
  ok: false,
  responseCode: null,
  durationMs: null,
  responseSnippet: null,
  error,
});

/**
 * The delivery worker. It sends the attempts of the outbox (see WebhookOutbox) that have come
 * due: right after an event is written, every {@link DELIVERY_POLL_MS} for retries, and at
 * start-up for what a stopped process left. Each attempt is claimed in the database until its
 * time limit has passed with a margin: on PostgreSQL with `FOR UPDATE SKIP LOCKED`, so that any
 * number of instances share the work and each attempt is made once; an attempt whose instance
 * died mid-send is due again once its claim has passed (on SQLite, at once on restart: one
 * process holds the file). At most `concurrency` attempts are made at once per instance.
 *
 * Each attempt is signed to the Standard Webhooks specification (the `standardwebhooks`
 * package), its outcome written over its row; a failure (any answer but a 2xx, a redirect
 * included, no answer in time, a network error, a refused address) gets its retry, with
 * exponential backoff and jitter (see backoff.ts), and an event whose every attempt failed counts
 * towards disabling its webhook, which tells every admin.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly drainer: BackgroundDrain;
  private readonly statements: PreparedStatements<typeof webhookDeliveriesSql>;
  private readonly webhookStatements: PreparedStatements<typeof webhooksSql>;
  private readonly policy: SendPolicy;
  private readonly rule: RetryRule;
  private readonly leaseMs: number;
  private readonly box: WebhookSecretBox;
  /** Gives up the attempts under way when the instance shuts down. */
  private readonly stopping = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextPruneAt = 0;
  private claimsFreed: boolean;

  constructor(
    private readonly sql: Sql,
    outbox: WebhookOutbox,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptionsResolved,
    @Optional() private readonly notifications?: NotificationsService,
  ) {
    this.statements = sql.prepare(webhookDeliveriesSql);
    this.webhookStatements = sql.prepare(webhooksSql);
    const { timeoutMs, allowHttp, allowPrivateAddresses, retryBaseMs, maxAttempts } = options;
    this.policy = { timeoutMs, allowHttp, allowPrivateAddresses };
    this.rule = { baseMs: retryBaseMs, maxAttempts };
    this.leaseMs = timeoutMs + LEASE_MARGIN_MS;
    this.box = new WebhookSecretBox(options.jwtSecret);
    this.claimsFreed = sql.dialect !== 'sqlite';
    this.drainer = new BackgroundDrain(() => this.deliverDue(), {
      // The outbox wakes it once the event has committed; events close together share a run.
      delayMs: 20,
      retryMs: DELIVERY_POLL_MS,
      task: 'deliver webhooks',
      logger: this.logger,
    });
    outbox.onEnqueued(() => this.drainer.request());
  }

  onApplicationBootstrap(): void {
    this.drainer.requestEvery(DELIVERY_POLL_MS);
  }

  /**
   * Stops looking, gives up the attempts under way and frees their claims, so that the next
   * instance makes them at once.
   */
  async beforeApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.stopping.abort();
    await this.drainer.stop();
  }

  /** Asks for a run soon: after an attempt was written outside the outbox (redeliver, test). */
  wake(): void {
    this.drainer.request();
  }

  /** Resolves once the attempts due before the call have been made: for tests. */
  settled(): Promise<void> {
    return this.drainer.settled();
  }

  /** Claims and makes due attempts, `concurrency` at once, until none is left. */
  private async deliverDue(): Promise<void> {
    await this.housekeeping();
    const running = new Set<Promise<void>>();
    let more = true;
    try {
      while (!this.drainer.isStopped) {
        const free = Math.min(this.options.concurrency - running.size, CLAIM_BATCH);
        if (more && free > 0) {
          const claimed = await this.claim(free);
          more = claimed.length === free;
          for (const [delivery, webhook, leaseUntil] of claimed) {
            const made: Promise<void> = this.attempt(delivery, webhook, leaseUntil).finally(() =>
              running.delete(made),
            );
            running.add(made);
          }
        }
        if (running.size === 0) return;
        await Promise.race(running);
      }
    } finally {
      await Promise.allSettled(running);
    }
  }

  private async claim(batch: number): Promise<[WebhookDelivery, Webhook | undefined, Date][]> {
    const now = new Date();
    const leaseUntil = new Date(now.getTime() + this.leaseMs);
    const rows = await this.sql.all(this.statements.claim, { now, leaseUntil, batch });
    if (rows.length === 0) return [];
    const ids = [...new Set(rows.map((row) => row.webhookId))];
    const webhooks = (await this.sql.all(this.webhookStatements.byIds, { ids })).map(toWebhook);
    const byId = new Map(webhooks.map((webhook) => [webhook.id, webhook]));
    return rows.map((row) => [toDelivery(row), byId.get(row.webhookId), leaseUntil]);
  }

  /** On SQLite, at the first run, frees the claims a stopped process left; and prunes the log hourly. */
  private async housekeeping(): Promise<void> {
    if (!this.claimsFreed) {
      await this.sql.run(this.statements.releaseAll, {});
      this.claimsFreed = true;
    }
    if (Date.now() < this.nextPruneAt) return;
    const before = new Date(Date.now() - this.options.logDays * DAY_MS);
    while (
      (await this.sql.run(this.statements.prune, { before, batch: PRUNE_BATCH })) === PRUNE_BATCH
    ) {
      if (this.drainer.isStopped) return;
    }
    this.nextPruneAt = Date.now() + PRUNE_EVERY_MS;
  }

  /** Makes one claimed attempt and writes how it went; never throws. */
  private async attempt(
    delivery: WebhookDelivery,
    webhook: Webhook | undefined,
    leaseUntil: Date,
  ): Promise<void> {
    // A webhook deleted since the claim took its attempts with it.
    if (!webhook) return;
    try {
      if (!webhook.enabled && !delivery.manual) {
        const cancelled = notSent('The webhook was disabled before this attempt came due.');
        await this.record(delivery, webhook, leaseUntil, new Date(), cancelled, true);
        return;
      }
      const attemptedAt = new Date();
      const outcome = await this.send(delivery, webhook, attemptedAt);
      if (this.stopping.signal.aborted) {
        await this.sql.run(this.statements.release, { ids: [delivery.id] });
        return;
      }
      await this.record(delivery, webhook, leaseUntil, attemptedAt, outcome, false);
    } catch (error) {
      // Its claim runs out, and another run makes it again.
      this.logger.warn(`Could not record webhook attempt ${delivery.id}: ${messageOf(error)}`);
    }
  }

  /** Signs and sends: with the webhook's secret, and the one it replaced while that still signs. */
  private send(delivery: WebhookDelivery, webhook: Webhook, at: Date): Promise<SendOutcome> {
    const { box } = this;
    const secret = box.open(webhook.secret);
    if (secret === null) return Promise.resolve(notSent(UNREADABLE_SECRET));
    const previous =
      webhook.previousSecret && webhook.previousSecretUntil && webhook.previousSecretUntil > at
        ? box.open(webhook.previousSecret)
        : null;
    const signature = [secret, previous]
      .filter((key): key is string => key !== null)
      .map((key) => new StandardWebhook(key).sign(delivery.messageId, at, delivery.payload))
      .join(' ');
    const headers = {
      'webhook-id': delivery.messageId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
    return sendDelivery(
      { url: webhook.url, headers, body: delivery.payload },
      this.policy,
      this.stopping.signal,
    );
  }

  /**
   * Writes the outcome over the attempt's row, if this instance still holds it, with what follows
   * in the same transaction: the retry, or the webhook's count of failed events (and, past
   * `disableAfter`, its disabling and the admins' notifications).
   */
  private async record(
    delivery: WebhookDelivery,
    webhook: Webhook,
    leaseUntil: Date,
    attemptedAt: Date,
    outcome: SendOutcome,
    cancelled: boolean,
  ): Promise<void> {
    const now = new Date();
    const retryAt =
      outcome.ok || cancelled || delivery.manual
        ? null
        : nextAttemptAt(delivery.attempt, this.rule, delivery.eventAt, now);
    const status = outcome.ok
      ? DeliveryStatus.SUCCEEDED
      : cancelled
        ? DeliveryStatus.CANCELLED
        : DeliveryStatus.FAILED;
    const announce = await this.sql.transaction(async (sql) => {
      const written = await sql.run(this.statements.record, {
        id: delivery.id,
        leaseUntil,
        status,
        responseCode: outcome.responseCode,
        durationMs: outcome.durationMs,
        responseSnippet: outcome.responseSnippet,
        error: outcome.error,
        attemptedAt,
        nextAttemptAt: retryAt,
      });
      // Its claim ran out, and another instance has made it since.
      if (written === 0) return null;
      if (outcome.ok) await sql.run(this.webhookStatements.succeeded, { id: webhook.id });
      else if (retryAt) {
        await sql.run(this.statements.retry, { id: newId(), of: delivery.id, dueAt: retryAt, now });
      } else if (!cancelled && !delivery.manual) {
        return this.eventFailed(sql, webhook);
      }
      return null;
    });
    if (retryAt) this.wakeAt(retryAt);
    if (announce) {
      this.logger.warn(
        `Webhook ${webhook.id} is disabled: ${this.options.disableAfter} events in a row failed.`,
      );
      announce();
    }
  }

  /**
   * Counts an event whose every attempt failed; past `disableAfter` in a row, disables the
   * webhook and tells every admin. Returns what announces the notifications, when it disabled it.
   */
  private async eventFailed(sql: SqlRunner, webhook: Webhook): Promise<(() => void) | null> {
    const counted = await sql.one(this.webhookStatements.failed, { id: webhook.id });
    const { disableAfter } = this.options;
    if (!counted || disableAfter === 0 || Number(counted.consecutiveFailures) < disableAfter) {
      return null;
    }
    const disabled = await sql.run(this.webhookStatements.disable, {
      id: webhook.id,
      updatedAt: new Date(),
    });
    if (disabled === 0) return null;
    const told = await this.notifications?.toAdmins(
      sql,
      NotificationKind.WEBHOOK_DISABLED,
      counted.createdBy,
    );
    return told ?? (() => {});
  }

  /** Asks for a run when a retry sooner than the next look comes due. */
  private wakeAt(at: Date): void {
    const delay = at.getTime() - Date.now();
    if (delay >= DELIVERY_POLL_MS || this.drainer.isStopped) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.drainer.request();
      },
      Math.max(delay, 0),
    );
    timer.unref();
    this.timers.add(timer);
  }
}
