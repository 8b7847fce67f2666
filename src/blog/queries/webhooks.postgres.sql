-- Generated from src/blog/webhooks/webhooks.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- webhookDeliveriesSql.toldPostsOf
-- binds: $1 authorId
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
  p.author_id = $1
  AND (
    p.published_at IS NOT NULL
    OR p.scheduled_at IS NOT NULL
  )
ORDER BY
  p.id;

-- webhookDeliveriesSql.enqueue
-- binds: $1 idPrefix, $2 messageId, $3 event, $4 payload, $5 now, $6 token
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
  CAST($1 AS text) || '-7' || substr(CAST(gen_random_uuid() AS text), 16),
  w.id,
  CAST($2 AS varchar),
  CAST($3 AS varchar),
  CAST($4 AS text),
  1,
  FALSE,
  'PENDING',
  CAST($5 AS timestamptz),
  CAST($5 AS timestamptz),
  CAST($5 AS timestamptz)
FROM
  webhooks w
WHERE
  w.enabled = TRUE
  AND strpos(w.events, $6) > 0;

-- webhookDeliveriesSql.insertManual
-- binds: $1 id, $2 webhookId, $3 messageId, $4 event, $5 payload, $6 now
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
    $1,
    $2,
    $3,
    $4,
    $5,
    1,
    TRUE,
    'PENDING',
    $6,
    $6,
    $6
  );

-- webhookDeliveriesSql.redeliver
-- binds: $1 id, $2 now, $3 of
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
  CAST($1 AS varchar),
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
  CAST($2 AS timestamptz),
  d.event_at,
  CAST($2 AS timestamptz)
FROM
  webhook_deliveries d
WHERE
  d.id = $3;

-- webhookDeliveriesSql.byId
-- binds: $1 id
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
  d.id = $1;

-- webhookDeliveriesSql.pagesOf
-- binds: $1 keys, $2 first
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
      unnest(CAST($1 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      webhook_deliveries x
    WHERE
      x.webhook_id = k.value
    ORDER BY
      x.id DESC
    LIMIT
      $2
  ) t
  JOIN webhook_deliveries d ON d.id = t.id
ORDER BY
  d.id DESC;

-- webhookDeliveriesSql.pagesOfAfter
-- binds: $1 keys, $2 after, $3 first
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
      unnest(CAST($1 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      webhook_deliveries x
    WHERE
      x.webhook_id = k.value
      AND x.id < $2
    ORDER BY
      x.id DESC
    LIMIT
      $3
  ) t
  JOIN webhook_deliveries d ON d.id = t.id
ORDER BY
  d.id DESC;

-- webhookDeliveriesSql.claim
-- binds: $1 leaseUntil, $2 now, $3 batch
UPDATE webhook_deliveries
SET
  lease_expires_at = $1
WHERE
  id IN (
    SELECT
      d.id
    FROM
      webhook_deliveries d
    WHERE
      d.status = 'PENDING'
      AND d.next_attempt_at <= $2
      AND (
        d.lease_expires_at IS NULL
        OR d.lease_expires_at <= $2
      )
    ORDER BY
      d.next_attempt_at
    LIMIT
      $3
    FOR UPDATE
      SKIP LOCKED
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
-- binds: $1 ids
UPDATE webhook_deliveries
SET
  lease_expires_at = NULL
WHERE
  id = ANY ($1)
  AND status = 'PENDING';

-- webhookDeliveriesSql.record
-- binds: $1 status, $2 responseCode, $3 durationMs, $4 responseSnippet, $5 error, $6 attemptedAt, $7 nextAttemptAt, $8 id, $9 leaseUntil
UPDATE webhook_deliveries
SET
  status = $1,
  response_code = $2,
  duration_ms = $3,
  response_snippet = $4,
  error = $5,
  attempted_at = $6,
  next_attempt_at = $7,
  lease_expires_at = NULL
WHERE
  id = $8
  AND status = 'PENDING'
  AND lease_expires_at = $9;

-- webhookDeliveriesSql.retry
-- binds: $1 id, $2 dueAt, $3 now, $4 of
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
  CAST($1 AS varchar),
  d.webhook_id,
  d.message_id,
  d.event,
  d.payload,
  d.attempt + 1,
  d.manual,
  'PENDING',
  CAST($2 AS timestamptz),
  d.event_at,
  CAST($3 AS timestamptz)
FROM
  webhook_deliveries d
WHERE
  d.id = $4;

-- webhookDeliveriesSql.prune
-- binds: $1 before, $2 batch
DELETE FROM webhook_deliveries
WHERE
  id IN (
    SELECT
      d.id
    FROM
      webhook_deliveries d
    WHERE
      d.created_at < $1
      AND d.status <> 'PENDING'
    LIMIT
      $2
  );

-- webhooksSql.insert
-- binds: $1 id, $2 url, $3 events, $4 description, $5 secret, $6 createdBy, $7 createdAt
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
  ($1, $2, $3, $4, $5, TRUE, 0, $6, $7, $7);

-- webhooksSql.byId
-- binds: $1 id
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
  w.id = $1;

-- webhooksSql.byIds
-- binds: $1 ids
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
  w.id = ANY ($1);

-- webhooksSql.page
-- binds: $1 first
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
  $1;

-- webhooksSql.pageAfter
-- binds: $1 after, $2 first
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
  w.id > $1
ORDER BY
  w.id
LIMIT
  $2;

-- webhooksSql.count
SELECT
  COUNT(*) AS count
FROM
  webhooks;

-- webhooksSql.update
-- binds: $1 url, $2 events, $3 description, $4 updatedAt, $5 id
UPDATE webhooks
SET
  url = $1,
  events = $2,
  description = $3,
  updated_at = $4
WHERE
  id = $5;

-- webhooksSql.enable
-- binds: $1 updatedAt, $2 id
UPDATE webhooks
SET
  enabled = TRUE,
  consecutive_failures = 0,
  updated_at = $1
WHERE
  id = $2
  AND enabled = FALSE;

-- webhooksSql.disable
-- binds: $1 updatedAt, $2 id
UPDATE webhooks
SET
  enabled = FALSE,
  updated_at = $1
WHERE
  id = $2
  AND enabled = TRUE;

-- webhooksSql.delete
-- binds: $1 id
DELETE FROM webhooks
WHERE
  id = $1;

-- webhooksSql.rotate
-- binds: $1 previousUntil, $2 secret, $3 updatedAt, $4 id
UPDATE webhooks
SET
  previous_secret = secret,
  previous_secret_expires_at = $1,
  secret = $2,
  updated_at = $3
WHERE
  id = $4;

-- webhooksSql.succeeded
-- binds: $1 id
UPDATE webhooks
SET
  consecutive_failures = 0
WHERE
  id = $1
  AND consecutive_failures <> 0;

-- webhooksSql.failed
-- binds: $1 id
UPDATE webhooks
SET
  consecutive_failures = consecutive_failures + 1
WHERE
  id = $1
RETURNING
  consecutive_failures AS "consecutiveFailures",
  enabled,
  created_by AS "createdBy";
