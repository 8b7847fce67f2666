-- Generated from src/blog/users/users.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- usersSql.byId
-- binds: $1 id
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
  u.id = $1;

-- usersSql.byIds
-- binds: $1 ids
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
  u.id = ANY ($1);

-- usersSql.byHandle
-- binds: $1 handle
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
  u.handle = $1;

-- usersSql.byEmailWithPassword
-- binds: $1 email
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
  u.email = $1;

-- usersSql.byIdWithPassword
-- binds: $1 id
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
  u.id = $1;

-- usersSql.first
-- binds: $1 first
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
  $1;

-- usersSql.after
-- binds: $1 after, $2 first
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
  u.id > $1
ORDER BY
  u.id
LIMIT
  $2;

-- usersSql.takenHandles
-- binds: $1 handles
SELECT
  u.handle
FROM
  users u
WHERE
  u.handle = ANY ($1);

-- usersSql.emailTaken
-- binds: $1 email
SELECT
  1 AS yes
FROM
  users u
WHERE
  u.email = $1
LIMIT
  1;

-- usersSql.insert
-- binds: $1 id, $2 name, $3 email, $4 handle, $5 avatar, $6 passwordHash, $7 role, $8 tokenVersion, $9 emailVerified, $10 createdAt, $11 updatedAt
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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11);

-- usersSql.updateProfile
-- binds: $1 name, $2 handle, $3 setAvatar, $4 avatar, $5 avatarImageId, $6 updatedAt, $7 id
UPDATE users
SET
  name = COALESCE($1, name),
  handle = COALESCE($2, handle),
  avatar = CASE
    WHEN $3 THEN $4
    ELSE avatar
  END,
  avatar_image_id = CASE
    WHEN $3 THEN $5
    ELSE avatar_image_id
  END,
  updated_at = $6
WHERE
  id = $7;

-- usersSql.changePassword
-- binds: $1 passwordHash, $2 updatedAt, $3 id, $4 tokenVersion
UPDATE users
SET
  password_hash = $1,
  token_version = token_version + 1,
  updated_at = $2
WHERE
  id = $3
  AND token_version = $4;

-- usersSql.lockAdmins
SELECT
  u.id
FROM
  users u
WHERE
  u.role = 'admin'
FOR UPDATE;

-- usersSql.setRole
-- binds: $1 role, $2 updatedAt, $3 id
UPDATE users
SET role = $1,
updated_at = $2
WHERE
  id = $3;

-- usersSql.ban
-- binds: $1 at, $2 until, $3 reason, $4 id
UPDATE users
SET
  banned_at = $1,
  banned_until = $2,
  ban_reason = $3
WHERE
  id = $4;

-- usersSql.unban
-- binds: $1 id
UPDATE users
SET
  banned_at = NULL,
  banned_until = NULL,
  ban_reason = NULL
WHERE
  id = $1
  AND banned_at IS NOT NULL;

-- usersSql.revokeTokens
-- binds: $1 id
UPDATE users
SET
  token_version = token_version + 1
WHERE
  id = $1;
