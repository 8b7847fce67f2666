-- Generated from src/blog/webhooks/webhooks.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- webhookDeliveriesSql.toldPostsOf
-- binds: authorId
SELECT
  p.id,
  p.title,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt",
  p.slug,
  p.scheduled_at AS "scheduledAt",
  p.excerpt,
  p.custom_excerpt AS "customExcerpt",
  p.word_count AS "wordCount",
  p.cover_url AS "coverUrl",
  p.cover_image_id AS "coverImageId",
  p.cover_alt AS "coverAlt",
  p.cover_caption AS "coverCaption",
  p.seo_title AS "seoTitle",
  p.seo_description AS "seoDescription",
  p.seo_canonical_url AS "seoCanonicalUrl",
  p.review_state AS "reviewState",
  p.review_requested_at AS "reviewRequestedAt",
  p.rejection_reason AS "rejectionReason",
  p.comments_locked_at AS "commentsLockedAt",
  p.hidden_at AS "hiddenAt"
FROM
  posts p
WHERE
  p.author_id = + ?
  AND (
    p.published_at IS NOT NULL
    OR p.scheduled_at IS NOT NULL
  )
ORDER BY
  p.id;

-- webhookDeliveriesSql.enqueue
-- binds: idPrefix, messageId, event, payload, now, now, now, token
INSERT INTO
  webhook_deliveries (
    id,
    webhook_id,
    message_id,
    event,
    payload,
    attempt,
    manual,
    status,
    next_attempt_at,
    event_at,
    created_at
  )
SELECT
  + ? || '-7' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + abs(random()) % 4, 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))),
  w.id,
  + ?,
  + ?,
  + ?,
  1,
  FALSE,
  'PENDING',
  + ?,
  + ?,
  + ?
FROM
  webhooks w
WHERE
  w.enabled = TRUE
  AND instr(w.events, + ?) > 0;

-- webhookDeliveriesSql.insertManual
-- binds: id, webhookId, messageId, event, payload, now, now, now
INSERT INTO
  webhook_deliveries (
    id,
    webhook_id,
    message_id,
    event,
    payload,
    attempt,
    manual,
    status,
    next_attempt_at,
    event_at,
    created_at
  )
VALUES
  (
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    1,
    TRUE,
    'PENDING',
    + ?,
    + ?,
    + ?
  );

-- webhookDeliveriesSql.redeliver
-- binds: id, now, now, of
INSERT INTO
  webhook_deliveries (
    id,
    webhook_id,
    message_id,
    event,
    payload,
    attempt,
    manual,
    status,
    next_attempt_at,
    event_at,
    created_at
  )
SELECT
  + ?,
  d.webhook_id,
  d.message_id,
  d.event,
  d.payload,
  (
    SELECT
      MAX(m.attempt)
    FROM
      webhook_deliveries m
    WHERE
      m.message_id = d.message_id
      AND m.webhook_id = d.webhook_id
  ) + 1,
  TRUE,
  'PENDING',
  + ?,
  d.event_at,
  + ?
FROM
  webhook_deliveries d
WHERE
  d.id = + ?;

-- webhookDeliveriesSql.byId
-- binds: id
SELECT
  d.id,
  d.webhook_id AS "webhookId",
  d.message_id AS "messageId",
  d.event,
  d.payload,
  d.attempt,
  d.manual,
  d.status,
  d.next_attempt_at AS "nextAttemptAt",
  d.lease_expires_at AS "leaseUntil",
  d.response_code AS "responseCode",
  d.duration_ms AS "durationMs",
  d.response_snippet AS "responseSnippet",
  d.error,
  d.event_at AS "eventAt",
  d.created_at AS "createdAt",
  d.attempted_at AS "attemptedAt"
FROM
  webhook_deliveries d
WHERE
  d.id = + ?;

-- webhookDeliveriesSql.pagesOf
-- binds: keys, first
SELECT
  d.id,
  d.webhook_id AS "webhookId",
  d.message_id AS "messageId",
  d.event,
  d.payload,
  d.attempt,
  d.manual,
  d.status,
  d.next_attempt_at AS "nextAttemptAt",
  d.lease_expires_at AS "leaseUntil",
  d.response_code AS "responseCode",
  d.duration_ms AS "durationMs",
  d.response_snippet AS "responseSnippet",
  d.error,
  d.event_at AS "eventAt",
  d.created_at AS "createdAt",
  d.attempted_at AS "attemptedAt"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN webhook_deliveries d ON d.id IN (
    SELECT
      x.id
    FROM
      webhook_deliveries x
    WHERE
      x.webhook_id = k.value
    ORDER BY
      x.id DESC
    LIMIT
      + ?
  )
ORDER BY
  d.id DESC;

-- webhookDeliveriesSql.pagesOfAfter
-- binds: keys, after, first
SELECT
  d.id,
  d.webhook_id AS "webhookId",
  d.message_id AS "messageId",
  d.event,
  d.payload,
  d.attempt,
  d.manual,
  d.status,
  d.next_attempt_at AS "nextAttemptAt",
  d.lease_expires_at AS "leaseUntil",
  d.response_code AS "responseCode",
  d.duration_ms AS "durationMs",
  d.response_snippet AS "responseSnippet",
  d.error,
  d.event_at AS "eventAt",
  d.created_at AS "createdAt",
  d.attempted_at AS "attemptedAt"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN webhook_deliveries d ON d.id IN (
    SELECT
      x.id
    FROM
      webhook_deliveries x
    WHERE
      x.webhook_id = k.value
      AND x.id < + ?
    ORDER BY
      x.id DESC
    LIMIT
      + ?
  )
ORDER BY
  d.id DESC;

-- webhookDeliveriesSql.claim
-- binds: leaseUntil, now, now, batch
UPDATE webhook_deliveries
SET
  lease_expires_at = + ?
WHERE
  id IN (
    SELECT
      d.id
    FROM
      webhook_deliveries d
    WHERE
      d.status = 'PENDING'
      AND d.next_attempt_at <= + ?
      AND (
        d.lease_expires_at IS NULL
        OR d.lease_expires_at <= + ?
      )
    ORDER BY
      d.next_attempt_at
    LIMIT
      + ?
  )
RETURNING
  id,
  webhook_id AS "webhookId",
  message_id AS "messageId",
  event,
  payload,
  attempt,
  manual,
  status,
  next_attempt_at AS "nextAttemptAt",
  lease_expires_at AS "leaseUntil",
  response_code AS "responseCode",
  duration_ms AS "durationMs",
  response_snippet AS "responseSnippet",
  error,
  event_at AS "eventAt",
  created_at AS "createdAt",
  attempted_at AS "attemptedAt";

-- webhookDeliveriesSql.releaseAll
UPDATE webhook_deliveries
SET
  lease_expires_at = NULL
WHERE
  status = 'PENDING'
  AND lease_expires_at IS NOT NULL;

-- webhookDeliveriesSql.release
-- binds: ids
UPDATE webhook_deliveries
SET
  lease_expires_at = NULL
WHERE
  id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
  AND status = 'PENDING';

-- webhookDeliveriesSql.record
-- binds: status, responseCode, durationMs, responseSnippet, error, attemptedAt, nextAttemptAt, id, leaseUntil
UPDATE webhook_deliveries
SET
  status = + ?,
  response_code = + ?,
  duration_ms = + ?,
  response_snippet = + ?,
  error = + ?,
  attempted_at = + ?,
  next_attempt_at = + ?,
  lease_expires_at = NULL
WHERE
  id = + ?
  AND status = 'PENDING'
  AND lease_expires_at = + ?;

-- webhookDeliveriesSql.retry
-- binds: id, dueAt, now, of
INSERT INTO
  webhook_deliveries (
    id,
    webhook_id,
    message_id,
    event,
    payload,
    attempt,
    manual,
    status,
    next_attempt_at,
    event_at,
    created_at
  )
SELECT
  + ?,
  d.webhook_id,
  d.message_id,
  d.event,
  d.payload,
  d.attempt + 1,
  d.manual,
  'PENDING',
  + ?,
  d.event_at,
  + ?
FROM
  webhook_deliveries d
WHERE
  d.id = + ?;

-- webhookDeliveriesSql.prune
-- binds: before, batch
DELETE FROM webhook_deliveries
WHERE
  id IN (
    SELECT
      d.id
    FROM
      webhook_deliveries d
    WHERE
      d.created_at < + ?
      AND d.status <> 'PENDING'
    LIMIT
      + ?
  );

-- webhooksSql.insert
-- binds: id, url, events, description, secret, createdBy, createdAt, createdAt
INSERT INTO
  webhooks (
    id,
    url,
    events,
    description,
    secret,
    enabled,
    consecutive_failures,
    created_by,
    created_at,
    updated_at
  )
VALUES
  (+ ?, + ?, + ?, + ?, + ?, TRUE, 0, + ?, + ?, + ?);

-- webhooksSql.byId
-- binds: id
SELECT
  w.id,
  w.url,
  w.events,
  w.description,
  w.secret,
  w.previous_secret AS "previousSecret",
  w.previous_secret_expires_at AS "previousSecretUntil",
  w.enabled,
  w.consecutive_failures AS "consecutiveFailures",
  w.created_by AS "createdBy",
  w.created_at AS "createdAt",
  w.updated_at AS "updatedAt"
FROM
  webhooks w
WHERE
  w.id = + ?;

-- webhooksSql.byIds
-- binds: ids
SELECT
  w.id,
  w.url,
  w.events,
  w.description,
  w.secret,
  w.previous_secret AS "previousSecret",
  w.previous_secret_expires_at AS "previousSecretUntil",
  w.enabled,
  w.consecutive_failures AS "consecutiveFailures",
  w.created_by AS "createdBy",
  w.created_at AS "createdAt",
  w.updated_at AS "updatedAt"
FROM
  webhooks w
WHERE
  w.id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- webhooksSql.page
-- binds: first
SELECT
  w.id,
  w.url,
  w.events,
  w.description,
  w.secret,
  w.previous_secret AS "previousSecret",
  w.previous_secret_expires_at AS "previousSecretUntil",
  w.enabled,
  w.consecutive_failures AS "consecutiveFailures",
  w.created_by AS "createdBy",
  w.created_at AS "createdAt",
  w.updated_at AS "updatedAt"
FROM
  webhooks w
ORDER BY
  w.id
LIMIT
  + ?;

-- webhooksSql.pageAfter
-- binds: after, first
SELECT
  w.id,
  w.url,
  w.events,
  w.description,
  w.secret,
  w.previous_secret AS "previousSecret",
  w.previous_secret_expires_at AS "previousSecretUntil",
  w.enabled,
  w.consecutive_failures AS "consecutiveFailures",
  w.created_by AS "createdBy",
  w.created_at AS "createdAt",
  w.updated_at AS "updatedAt"
FROM
  webhooks w
WHERE
  w.id > + ?
ORDER BY
  w.id
LIMIT
  + ?;

-- webhooksSql.count
SELECT
  COUNT(*) AS count
FROM
  webhooks;

-- webhooksSql.update
-- binds: url, events, description, updatedAt, id
UPDATE webhooks
SET
  url = + ?,
  events = + ?,
  description = + ?,
  updated_at = + ?
WHERE
  id = + ?;

-- webhooksSql.enable
-- binds: updatedAt, id
UPDATE webhooks
SET
  enabled = TRUE,
  consecutive_failures = 0,
  updated_at = + ?
WHERE
  id = + ?
  AND enabled = FALSE;

-- webhooksSql.disable
-- binds: updatedAt, id
UPDATE webhooks
SET
  enabled = FALSE,
  updated_at = + ?
WHERE
  id = + ?
  AND enabled = TRUE;

-- webhooksSql.delete
-- binds: id
DELETE FROM webhooks
WHERE
  id = + ?;

-- webhooksSql.rotate
-- binds: previousUntil, secret, updatedAt, id
UPDATE webhooks
SET
  previous_secret = secret,
  previous_secret_expires_at = + ?,
  secret = + ?,
  updated_at = + ?
WHERE
  id = + ?;

-- webhooksSql.succeeded
-- binds: id
UPDATE webhooks
SET
  consecutive_failures = 0
WHERE
  id = + ?
  AND consecutive_failures <> 0;

-- webhooksSql.failed
-- binds: id
UPDATE webhooks
SET
  consecutive_failures = consecutive_failures + 1
WHERE
  id = + ?
RETURNING
  consecutive_failures AS "consecutiveFailures",
  enabled,
  created_by AS "createdBy";
