-- Generated from src/blog/users/users.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- usersSql.byId
-- binds: id
SELECT
  u.id,
  u.name,
  u.email,
  u.handle,
  u.avatar,
  u.avatar_image_id AS "avatarImageId",
  u.role,
  u.token_version AS "tokenVersion",
  u.email_verified AS "emailVerified",
  u.created_at AS "createdAt",
  u.updated_at AS "updatedAt",
  u.banned_at AS "bannedAt",
  u.banned_until AS "bannedUntil",
  u.ban_reason AS "banReason"
FROM
  users u
WHERE
  u.id = + ?;

-- usersSql.byIds
-- binds: ids
SELECT
  u.id,
  u.name,
  u.email,
  u.handle,
  u.avatar,
  u.avatar_image_id AS "avatarImageId",
  u.role,
  u.token_version AS "tokenVersion",
  u.email_verified AS "emailVerified",
  u.created_at AS "createdAt",
  u.updated_at AS "updatedAt",
  u.banned_at AS "bannedAt",
  u.banned_until AS "bannedUntil",
  u.ban_reason AS "banReason"
FROM
  users u
WHERE
  u.id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- usersSql.byHandle
-- binds: handle
SELECT
  u.id,
  u.name,
  u.email,
  u.handle,
  u.avatar,
  u.avatar_image_id AS "avatarImageId",
  u.role,
  u.token_version AS "tokenVersion",
  u.email_verified AS "emailVerified",
  u.created_at AS "createdAt",
  u.updated_at AS "updatedAt",
  u.banned_at AS "bannedAt",
  u.banned_until AS "bannedUntil",
  u.ban_reason AS "banReason"
FROM
  users u
WHERE
  u.handle = + ?;

-- usersSql.byEmailWithPassword
-- binds: email
SELECT
  u.id,
  u.name,
  u.email,
  u.handle,
  u.avatar,
  u.avatar_image_id AS "avatarImageId",
  u.role,
  u.token_version AS "tokenVersion",
  u.email_verified AS "emailVerified",
  u.created_at AS "createdAt",
  u.updated_at AS "updatedAt",
  u.banned_at AS "bannedAt",
  u.banned_until AS "bannedUntil",
  u.ban_reason AS "banReason",
  u.password_hash AS "passwordHash"
FROM
  users u
WHERE
  u.email = + ?;

-- usersSql.byIdWithPassword
-- binds: id
SELECT
  u.id,
  u.name,
  u.email,
  u.handle,
  u.avatar,
  u.avatar_image_id AS "avatarImageId",
  u.role,
  u.token_version AS "tokenVersion",
  u.email_verified AS "emailVerified",
  u.created_at AS "createdAt",
  u.updated_at AS "updatedAt",
  u.banned_at AS "bannedAt",
  u.banned_until AS "bannedUntil",
  u.ban_reason AS "banReason",
  u.password_hash AS "passwordHash"
FROM
  users u
WHERE
  u.id = + ?;

-- usersSql.first
-- binds: first
SELECT
  u.id,
  u.name,
  u.email,
  u.handle,
  u.avatar,
  u.avatar_image_id AS "avatarImageId",
  u.role,
  u.token_version AS "tokenVersion",
  u.email_verified AS "emailVerified",
  u.created_at AS "createdAt",
  u.updated_at AS "updatedAt",
  u.banned_at AS "bannedAt",
  u.banned_until AS "bannedUntil",
  u.ban_reason AS "banReason"
FROM
  users u
ORDER BY
  u.id
LIMIT
  + ?;

-- usersSql.after
-- binds: after, first
SELECT
  u.id,
  u.name,
  u.email,
  u.handle,
  u.avatar,
  u.avatar_image_id AS "avatarImageId",
  u.role,
  u.token_version AS "tokenVersion",
  u.email_verified AS "emailVerified",
  u.created_at AS "createdAt",
  u.updated_at AS "updatedAt",
  u.banned_at AS "bannedAt",
  u.banned_until AS "bannedUntil",
  u.ban_reason AS "banReason"
FROM
  users u
WHERE
  u.id > + ?
ORDER BY
  u.id
LIMIT
  + ?;

-- usersSql.takenHandles
-- binds: handles
SELECT
  u.handle
FROM
  users u
WHERE
  u.handle IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- usersSql.emailTaken
-- binds: email
SELECT
  1 AS yes
FROM
  users u
WHERE
  u.email = + ?
LIMIT
  1;

-- usersSql.insert
-- binds: id, name, email, handle, avatar, passwordHash, role, tokenVersion, emailVerified, createdAt, updatedAt
INSERT INTO
  users (
    id,
    name,
    email,
    handle,
    avatar,
    password_hash,
    role,
    token_version,
    email_verified,
    created_at,
    updated_at
  )
VALUES
  (
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?
  );

-- usersSql.updateProfile
-- binds: name, handle, setAvatar, avatar, setAvatar, avatarImageId, updatedAt, id
UPDATE users
SET
  name = COALESCE(+ ?, name),
  handle = COALESCE(+ ?, handle),
  avatar = CASE
    WHEN + ? THEN + ?
    ELSE avatar
  END,
  avatar_image_id = CASE
    WHEN + ? THEN + ?
    ELSE avatar_image_id
  END,
  updated_at = + ?
WHERE
  id = + ?;

-- usersSql.changePassword
-- binds: passwordHash, updatedAt, id, tokenVersion
UPDATE users
SET
  password_hash = + ?,
  token_version = token_version + 1,
  updated_at = + ?
WHERE
  id = + ?
  AND token_version = + ?;

-- usersSql.lockAdmins
SELECT
  u.id
FROM
  users u
WHERE
  u.role = 'admin';

-- usersSql.setRole
-- binds: role, updatedAt, id
UPDATE users
SET
  role = + ?,
  updated_at = + ?
WHERE
  id = + ?;

-- usersSql.ban
-- binds: at, until, reason, id
UPDATE users
SET
  banned_at = + ?,
  banned_until = + ?,
  ban_reason = + ?
WHERE
  id = + ?;

-- usersSql.unban
-- binds: id
UPDATE users
SET
  banned_at = NULL,
  banned_until = NULL,
  ban_reason = NULL
WHERE
  id = + ?
  AND banned_at IS NOT NULL;

-- usersSql.revokeTokens
-- binds: id
UPDATE users
SET
  token_version = token_version + 1
WHERE
  id = + ?;
