-- Generated from src/blog/mail/mail.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- mailSql.enqueue
-- binds: id, kind, recipient, subject, text, html, headers, now, now
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
  (+ ?, + ?, + ?, + ?, + ?, + ?, + ?, 0, + ?, + ?);

-- mailSql.anyDue
-- binds: now, now
SELECT
  m.id
FROM
  mail_outbox m
WHERE
  m.next_attempt_at IS NOT NULL
  AND m.next_attempt_at <= + ?
  AND (
    m.lease_expires_at IS NULL
    OR m.lease_expires_at <= + ?
  )
LIMIT
  1;

-- mailSql.claim
-- binds: leaseUntil, now, now
UPDATE mail_outbox
SET
  lease_expires_at = + ?,
  attempts = attempts + 1
WHERE
  id = (
    SELECT
      m.id
    FROM
      mail_outbox m
    WHERE
      m.next_attempt_at <= + ?
      AND (
        m.lease_expires_at IS NULL
        OR m.lease_expires_at <= + ?
      )
    ORDER BY
      m.next_attempt_at,
      m.id
    LIMIT
      1
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
-- binds: now, id
UPDATE mail_outbox
SET
  sent_at = + ?,
  next_attempt_at = NULL,
  lease_expires_at = NULL,
  text = NULL,
  html = NULL,
  last_error = NULL
WHERE
  id = + ?;

-- mailSql.retry
-- binds: nextAttemptAt, error, id
UPDATE mail_outbox
SET
  next_attempt_at = + ?,
  lease_expires_at = NULL,
  last_error = + ?
WHERE
  id = + ?;

-- mailSql.giveUp
-- binds: error, id
UPDATE mail_outbox
SET
  next_attempt_at = NULL,
  lease_expires_at = NULL,
  last_error = + ?,
  text = NULL,
  html = NULL
WHERE
  id = + ?;

-- mailSql.prune
-- binds: before
DELETE FROM mail_outbox
WHERE
  next_attempt_at IS NULL
  AND created_at < + ?;
