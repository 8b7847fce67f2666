-- Generated from src/blog/auth/account-email.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- accountEmailSql.insertToken
-- binds: $1 id, $2 userId, $3 purpose, $4 tokenHash, $5 email, $6 expiresAt, $7 createdAt
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
  ($1, $2, $3, $4, $5, $6, $7);

-- accountEmailSql.deleteSpent
-- binds: $1 userId, $2 purpose, $3 since, $4 now
DELETE FROM account_tokens
WHERE
  user_id = $1
  AND purpose = $2
  AND created_at < $3
  AND expires_at <= $4;

-- accountEmailSql.lockAccount
-- binds: $1 id
SELECT
  u.id
FROM
  users u
WHERE
  u.id = $1
FOR NO KEY UPDATE;

-- accountEmailSql.issuedSince
-- binds: $1 userId, $2 purpose, $3 since
SELECT
  COUNT(*) AS count,
  MIN(t.created_at) AS first
FROM
  account_tokens t
WHERE
  t.user_id = $1
  AND t.purpose = $2
  AND t.created_at > $3;

-- accountEmailSql.live
-- binds: $1 tokenHash, $2 purpose, $3 now
SELECT
  user_id AS "userId",
  email
FROM
  account_tokens
WHERE
  token_hash = $1
  AND purpose = $2
  AND used_at IS NULL
  AND expires_at > $3;

-- accountEmailSql.use
-- binds: $1 now, $2 tokenHash, $3 purpose
UPDATE account_tokens
SET
  used_at = $1
WHERE
  token_hash = $2
  AND purpose = $3
  AND used_at IS NULL
  AND expires_at > $1
RETURNING
  user_id AS "userId",
  email;

-- accountEmailSql.useAll
-- binds: $1 now, $2 userId, $3 purpose
UPDATE account_tokens
SET
  used_at = $1
WHERE
  user_id = $2
  AND purpose = $3
  AND used_at IS NULL;

-- accountEmailSql.byEmail
-- binds: $1 email
SELECT
  u.id,
  u.name,
  u.email
FROM
  users u
WHERE
  u.email = $1;

-- accountEmailSql.credentials
-- binds: $1 id
SELECT
  u.password_hash AS "passwordHash",
  u.email
FROM
  users u
WHERE
  u.id = $1;

-- accountEmailSql.resetPassword
-- binds: $1 passwordHash, $2 verified, $3 now, $4 userId, $5 email
UPDATE users
SET
  password_hash = $1,
  token_version = token_version + 1,
  email_verified = $2,
  updated_at = $3
WHERE
  id = $4
  AND email = $5;

-- accountEmailSql.verify
-- binds: $1 verified, $2 now, $3 userId, $4 email
UPDATE users
SET
  email_verified = $1,
  updated_at = $2
WHERE
  id = $3
  AND email = $4;

-- accountEmailSql.changeEmail
-- binds: $1 email, $2 verified, $3 now, $4 id
UPDATE users
SET
  email = $1,
  email_verified = $2,
  updated_at = $3
WHERE
  id = $4;
