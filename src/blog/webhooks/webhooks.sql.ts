import { Dialect, perDialect, rowId, selected, statement } from '../common/sql';
import { postColumns, PostSummaryRow } from '../posts/post.rows';

/** A webhook as the statements read it. */
export interface WebhookRow {
  id: string;
  url: string;
  events: string;
  description: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | string | null;
  enabled: boolean | number;
  consecutiveFailures: number;
  createdBy: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

/** An attempt as the statements read it. */
export interface DeliveryRow {
  id: string;
  webhookId: string;
  messageId: string;
  event: string;
  payload: string;
  attempt: number;
  manual: boolean | number;
  status: string;
  nextAttemptAt: Date | string | null;
  leaseUntil: Date | string | null;
  responseCode: number | null;
  durationMs: number | null;
  responseSnippet: string | null;
  error: string | null;
  eventAt: Date | string;
  createdAt: Date | string;
  attemptedAt: Date | string | null;
}

/** A webhook's new row. */
export interface NewWebhookParameters {
  id: string;
  url: string;
  events: string;
  description: string | null;
  secret: string;
  createdBy: string;
  createdAt: Date;
}

/** The outcome of an attempt, written over its PENDING row by the instance that holds it. */
export interface AttemptParameters {
  id: string;
  leaseUntil: Date;
  status: string;
  responseCode: number | null;
  durationMs: number | null;
  responseSnippet: string | null;
  error: string | null;
  attemptedAt: Date;
  nextAttemptAt: Date | null;
}

const WEBHOOK_COLUMNS =
  'w.id, w.url, w.events, w.description, w.secret, w.previous_secret AS "previousSecret", ' +
  'w.previous_secret_expires_at AS "previousSecretUntil", w.enabled, ' +
  'w.consecutive_failures AS "consecutiveFailures", w.created_by AS "createdBy", ' +
  'w.created_at AS "createdAt", w.updated_at AS "updatedAt"';

const DELIVERY_FIELDS =
  'id, webhook_id AS "webhookId", message_id AS "messageId", event, payload, attempt, manual, ' +
  'status, next_attempt_at AS "nextAttemptAt", lease_expires_at AS "leaseUntil", ' +
  'response_code AS "responseCode", duration_ms AS "durationMs", ' +
  'response_snippet AS "responseSnippet", error, event_at AS "eventAt", ' +
  'created_at AS "createdAt", attempted_at AS "attemptedAt"';

const DELIVERY_COLUMNS = DELIVERY_FIELDS.split(', ')
  .map((field) => `d.${field}`)
  .join(', ');

/**
 * The start of the statement that claims due attempts (and of the one that frees an instance's
 * claims at start-up on SQLite): the delivery worker's look, every second, belongs to no request.
 */
export const DUE_DELIVERIES = 'UPDATE webhook_deliveries SET lease_expires_at';

/** The start of the statement that prunes the delivery log, which no request sends either. */
export const PRUNED_DELIVERIES = 'DELETE FROM webhook_deliveries WHERE id IN';

/** Whether a webhook's event list (`,A,B,`) holds `:token` (`,A,`). */
const subscribes = (dialect: Dialect) =>
  dialect === 'postgres' ? 'strpos(w.events, :token) > 0' : 'instr(w.events, :token) > 0';

const INSERT_DELIVERY =
  'INSERT INTO webhook_deliveries (id, webhook_id, message_id, event, payload, attempt, manual, ' +
  'status, next_attempt_at, event_at, created_at)';

const webhookPage = (after: boolean) =>
  statement<{ first: number; after?: string }, WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks w${after ? ' WHERE w.id > :after' : ''} ` +
      'ORDER BY w.id LIMIT :first',
  );

/** A page of each webhook's attempts, newest first (ids are time-ordered). */
const deliveriesPerWebhook = (after: boolean) => {
  const ids =
    `SELECT x.id FROM webhook_deliveries x WHERE x.webhook_id = k.value${after ? ' AND x.id < :after' : ''} ` +
    'ORDER BY x.id DESC LIMIT :first';
  return statement<{ keys: readonly string[]; first: number; after?: string }, DeliveryRow>({
    sqlite: `SELECT ${DELIVERY_COLUMNS} FROM KEYS(:...keys) k JOIN webhook_deliveries d ON d.id IN (${ids}) ORDER BY d.id DESC`,
    postgres: `SELECT ${DELIVERY_COLUMNS} FROM KEYS(:...keys) k CROSS JOIN LATERAL (${ids}) t JOIN webhook_deliveries d ON d.id = t.id ORDER BY d.id DESC`,
  });
};

/** The statements of webhooks and their admins (see WebhooksService). */
export const webhooksSql = {
  insert: statement<NewWebhookParameters>(
    'INSERT INTO webhooks (id, url, events, description, secret, enabled, consecutive_failures, ' +
      'created_by, created_at, updated_at) VALUES (:id, :url, :events, :description, :secret, ' +
      'TRUE, 0, :createdBy, :createdAt, :createdAt)',
  ),
  byId: statement<{ id: string }, WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks w WHERE w.id = :id`,
  ),
  byIds: statement<{ ids: readonly string[] }, WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks w WHERE w.id IN (:...ids)`,
  ),
  page: webhookPage(false),
  pageAfter: webhookPage(true),
  count: statement<object, { count: string | number }>('SELECT COUNT(*) AS count FROM webhooks'),
  update: statement<{
    id: string;
    url: string;
    events: string;
    description: string | null;
    updatedAt: Date;
  }>(
    'UPDATE webhooks SET url = :url, events = :events, description = :description, ' +
      'updated_at = :updatedAt WHERE id = :id',
  ),
  /** Enables a disabled webhook, its count of failed events back to 0. */
  enable: statement<{ id: string; updatedAt: Date }>(
    'UPDATE webhooks SET enabled = TRUE, consecutive_failures = 0, updated_at = :updatedAt ' +
      'WHERE id = :id AND enabled = FALSE',
  ),
  /** Disables an enabled webhook; nothing when it is disabled already. */
  disable: statement<{ id: string; updatedAt: Date }>(
    'UPDATE webhooks SET enabled = FALSE, updated_at = :updatedAt WHERE id = :id AND enabled = TRUE',
  ),
  delete: statement<{ id: string }>('DELETE FROM webhooks WHERE id = :id'),
  /** A new secret; the one it replaces keeps signing beside it until `previousUntil`. */
  rotate: statement<{ id: string; secret: string; previousUntil: Date; updatedAt: Date }>(
    'UPDATE webhooks SET previous_secret = secret, previous_secret_expires_at = :previousUntil, ' +
      'secret = :secret, updated_at = :updatedAt WHERE id = :id',
  ),
  /** A success: the webhook's failed events in a row are back to 0. */
  succeeded: statement<{ id: string }>(
    'UPDATE webhooks SET consecutive_failures = 0 WHERE id = :id AND consecutive_failures <> 0',
  ),
  /** An event whose every attempt failed: one more failed event in a row. */
  failed: statement<
    { id: string },
    { consecutiveFailures: number; enabled: boolean | number; createdBy: string | null }
  >(
    'UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = :id ' +
      'RETURNING consecutive_failures AS "consecutiveFailures", enabled, created_by AS "createdBy"',
  ),
};

/** The statements of the outbox and the delivery log (see WebhookOutbox, WebhookDispatcher). */
export const webhookDeliveriesSql = {
  /**
   * The published and scheduled posts of an author, as the events of their deletion tell them:
   * those an account deletion takes with it.
   */
  toldPostsOf: statement<{ authorId: string }, PostSummaryRow>(
    `SELECT ${postColumns('p', { content: false })} FROM posts p WHERE p.author_id = :authorId ` +
      'AND (p.published_at IS NOT NULL OR p.scheduled_at IS NOT NULL) ORDER BY p.id',
  ),
  /**
   * The first attempt of an event for every enabled webhook that subscribes to it, in the
   * transaction of the change the event tells of: one statement, and no row when none does.
   */
  enqueue: statement<{
    idPrefix: string;
    messageId: string;
    event: string;
    token: string;
    payload: string;
    now: Date;
  }>(
    perDialect(
      (dialect) =>
        `${INSERT_DELIVERY} SELECT ${rowId(dialect)}, w.id, ${selected(dialect, 'messageId')}, ` +
        `${selected(dialect, 'event')}, ${selected(dialect, 'payload', 'text')}, 1, FALSE, 'PENDING', ` +
        `${selected(dialect, 'now', 'timestamptz')}, ${selected(dialect, 'now', 'timestamptz')}, ` +
        `${selected(dialect, 'now', 'timestamptz')} FROM webhooks w ` +
        `WHERE w.enabled = TRUE AND ${subscribes(dialect)}`,
    ),
  ),
  /** One attempt made on demand (testWebhook): sent once, even to a disabled webhook. */
  insertManual: statement<{
    id: string;
    webhookId: string;
    messageId: string;
    event: string;
    payload: string;
    now: Date;
  }>(
    `${INSERT_DELIVERY} VALUES (:id, :webhookId, :messageId, :event, :payload, 1, TRUE, ` +
      "'PENDING', :now, :now, :now)",
  ),
  /**
   * The event of attempt `of` again, on demand (redeliverWebhook): the same message, the next
   * attempt number, sent once.
   */
  redeliver: statement<{ id: string; of: string; now: Date }>(
    perDialect(
      (dialect) =>
        `${INSERT_DELIVERY} SELECT ${selected(dialect, 'id')}, d.webhook_id, d.message_id, d.event, ` +
        'd.payload, (SELECT MAX(m.attempt) FROM webhook_deliveries m ' +
        'WHERE m.message_id = d.message_id AND m.webhook_id = d.webhook_id) + 1, TRUE, ' +
        `'PENDING', ${selected(dialect, 'now', 'timestamptz')}, d.event_at, ` +
        `${selected(dialect, 'now', 'timestamptz')} FROM webhook_deliveries d WHERE d.id = :of`,
    ),
  ),
  byId: statement<{ id: string }, DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.id = :id`,
  ),
  pagesOf: deliveriesPerWebhook(false),
  pagesOfAfter: deliveriesPerWebhook(true),
  /**
   * Claims up to `batch` due attempts for this instance until `leaseUntil`: on PostgreSQL the
   * rows that another instance is claiming are skipped, and a claimed row is due again only once
   * its lease has passed (its instance died mid-send).
   */
  claim: statement<{ now: Date; leaseUntil: Date; batch: number }, DeliveryRow>(
    perDialect(
      (dialect) =>
        `${DUE_DELIVERIES} = :leaseUntil WHERE id IN (SELECT d.id FROM webhook_deliveries d ` +
        "WHERE d.status = 'PENDING' AND d.next_attempt_at <= :now " +
        'AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= :now) ORDER BY d.next_attempt_at ' +
        `LIMIT :batch${dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : ''}) ` +
        `RETURNING ${DELIVERY_FIELDS}`,
    ),
  ),
  /** Frees every claim: on SQLite at start-up, when no other process can be sending. */
  releaseAll: statement<object>(
    `${DUE_DELIVERIES} = NULL WHERE status = 'PENDING' AND lease_expires_at IS NOT NULL`,
  ),
  /** Frees this instance's claims of attempts it did not make: at shutdown. */
  release: statement<{ ids: readonly string[] }>(
    `${DUE_DELIVERIES} = NULL WHERE id IN (:...ids) AND status = 'PENDING'`,
  ),
  /** Writes how an attempt went, if this instance still holds it. */
  record: statement<AttemptParameters>(
    'UPDATE webhook_deliveries SET status = :status, response_code = :responseCode, ' +
      'duration_ms = :durationMs, response_snippet = :responseSnippet, error = :error, ' +
      'attempted_at = :attemptedAt, next_attempt_at = :nextAttemptAt, lease_expires_at = NULL ' +
      "WHERE id = :id AND status = 'PENDING' AND lease_expires_at = :leaseUntil",
  ),
  /** The attempt after failed attempt `of`, due at `dueAt`. */
  retry: statement<{ id: string; of: string; dueAt: Date; now: Date }>(
    perDialect(
      (dialect) =>
        `${INSERT_DELIVERY} SELECT ${selected(dialect, 'id')}, d.webhook_id, d.message_id, d.event, ` +
        `d.payload, d.attempt + 1, d.manual, 'PENDING', ${selected(dialect, 'dueAt', 'timestamptz')}, ` +
        `d.event_at, ${selected(dialect, 'now', 'timestamptz')} FROM webhook_deliveries d WHERE d.id = :of`,
    ),
  ),
  /** Attempts made before `before` (none pending), up to `batch` of them. */
  prune: statement<{ before: Date; batch: number }>(
    `${PRUNED_DELIVERIES} (SELECT d.id FROM webhook_deliveries d WHERE d.created_at < :before ` +
      "AND d.status <> 'PENDING' LIMIT :batch)",
  ),
};
