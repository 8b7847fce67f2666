-- Generated from src/blog/mail/mail.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- mailSql.enqueue
-- binds: $1 id, $2 kind, $3 recipient, $4 subject, $5 text, $6 html, $7 headers, $8 now
INSERT INTO
  mail_outbox (
    id,
    kind,
    recipient,
    subject,
    text,
    html,
    headers,
    attempts,
    next_attempt_at,
    created_at
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, 0, $8, $8);

-- mailSql.anyDue
-- binds: $1 now
SELECT
  m.id
FROM
  mail_outbox m
WHERE
  m.next_attempt_at IS NOT NULL
  AND m.next_attempt_at <= $1
  AND (
    m.lease_expires_at IS NULL
    OR m.lease_expires_at <= $1
  )
LIMIT
  1;

-- mailSql.claim
-- binds: $1 leaseUntil, $2 now
UPDATE mail_outbox
SET
  lease_expires_at = $1,
  attempts = attempts + 1
WHERE
  id = (
    SELECT
      m.id
    FROM
      mail_outbox m
    WHERE
      m.next_attempt_at <= $2
      AND (
        m.lease_expires_at IS NULL
        OR m.lease_expires_at <= $2
      )
    ORDER BY
      m.next_attempt_at,
      m.id
    LIMIT
      1
    FOR UPDATE
      SKIP LOCKED
  )
RETURNING
  id,
  kind,
  recipient,
  subject,
  text,
  html,
  headers,
  attempts;

-- mailSql.sent
-- binds: $1 now, $2 id
UPDATE mail_outbox
SET
  sent_at = $1,
  next_attempt_at = NULL,
  lease_expires_at = NULL,
  text = NULL,
  html = NULL,
  last_error = NULL
WHERE
  id = $2;

-- mailSql.retry
-- binds: $1 nextAttemptAt, $2 error, $3 id
UPDATE mail_outbox
SET
  next_attempt_at = $1,
  lease_expires_at = NULL,
  last_error = $2
WHERE
  id = $3;

-- mailSql.giveUp
-- binds: $1 error, $2 id
UPDATE mail_outbox
SET
  next_attempt_at = NULL,
  lease_expires_at = NULL,
  last_error = $1,
  text = NULL,
  html = NULL
WHERE
  id = $2;

-- mailSql.prune
-- binds: $1 before
DELETE FROM mail_outbox
WHERE
  next_attempt_at IS NULL
  AND created_at < $1;
