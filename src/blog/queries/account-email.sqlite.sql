-- Generated from src/blog/auth/account-email.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- accountEmailSql.insertToken
-- binds: id, userId, purpose, tokenHash, email, expiresAt, createdAt
INSERT INTO
  account_tokens (
    id,
    user_id,
    purpose,
    token_hash,
    email,
    expires_at,
    created_at
  )
VALUES
  (+ ?, + ?, + ?, + ?, + ?, + ?, + ?);

-- accountEmailSql.deleteSpent
-- binds: userId, purpose, since, now
DELETE FROM account_tokens
WHERE
  user_id = + ?
  AND purpose = + ?
  AND created_at < + ?
  AND expires_at <= + ?;

-- accountEmailSql.lockAccount
-- binds: id
SELECT
  u.id
FROM
  users u
WHERE
  u.id = + ?;

-- accountEmailSql.issuedSince
-- binds: userId, purpose, since
SELECT
  COUNT(*) AS count,
  MIN(t.created_at) AS first
FROM
  account_tokens t
WHERE
  t.user_id = + ?
  AND t.purpose = + ?
  AND t.created_at > + ?;

-- accountEmailSql.live
-- binds: tokenHash, purpose, now
SELECT
  user_id AS "userId",
  email
FROM
  account_tokens
WHERE
  token_hash = + ?
  AND purpose = + ?
  AND used_at IS NULL
  AND expires_at > + ?;

-- accountEmailSql.use
-- binds: now, tokenHash, purpose, now
UPDATE account_tokens
SET
  used_at = + ?
WHERE
  token_hash = + ?
  AND purpose = + ?
  AND used_at IS NULL
  AND expires_at > + ?
RETURNING
  user_id AS "userId",
  email;

-- accountEmailSql.useAll
-- binds: now, userId, purpose
UPDATE account_tokens
SET
  used_at = + ?
WHERE
  user_id = + ?
  AND purpose = + ?
  AND used_at IS NULL;

-- accountEmailSql.byEmail
-- binds: email
SELECT
  u.id,
  u.name,
  u.email
FROM
  users u
WHERE
  u.email = + ?;

-- accountEmailSql.credentials
-- binds: id
SELECT
  u.password_hash AS "passwordHash",
  u.email
FROM
  users u
WHERE
  u.id = + ?;

-- accountEmailSql.resetPassword
-- binds: passwordHash, verified, now, userId, email
UPDATE users
SET
  password_hash = + ?,
  token_version = token_version + 1,
  email_verified = + ?,
  updated_at = + ?
WHERE
  id = + ?
  AND email = + ?;

-- accountEmailSql.verify
-- binds: verified, now, userId, email
UPDATE users
SET
  email_verified = + ?,
  updated_at = + ?
WHERE
  id = + ?
  AND email = + ?;

-- accountEmailSql.changeEmail
-- binds: email, verified, now, id
UPDATE users
SET
  email = + ?,
  email_verified = + ?,
  updated_at = + ?
WHERE
  id = + ?;
