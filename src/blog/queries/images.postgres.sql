-- Generated from src/blog/images/images.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- imagesSql.lockOwner
-- binds: $1 id
SELECT
  u.id
FROM
  users u
WHERE
  u.id = $1
FOR NO KEY UPDATE;

-- imagesSql.usedBytes
-- binds: $1 ownerId
SELECT
  COALESCE(SUM(i.bytes), 0) AS bytes
FROM
  images i
WHERE
  i.owner_id = $1;

-- imagesSql.insert
-- binds: $1 id, $2 ownerId, $3 alt, $4 width, $5 height, $6 format, $7 bytes, $8 variants, $9 createdAt
INSERT INTO
  images (
    id,
    owner_id,
    alt,
    width,
    height,
    format,
    bytes,
    variants,
    created_at
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- imagesSql.byId
-- binds: $1 id
SELECT
  i.id,
  i.owner_id AS "ownerId",
  i.alt,
  i.width,
  i.height,
  i.format,
  i.bytes,
  i.variants,
  i.created_at AS "createdAt"
FROM
  images i
WHERE
  i.id = $1;

-- imagesSql.byIds
-- binds: $1 ids
SELECT
  i.id,
  i.owner_id AS "ownerId",
  i.alt,
  i.width,
  i.height,
  i.format,
  i.bytes,
  i.variants,
  i.created_at AS "createdAt"
FROM
  images i
WHERE
  i.id = ANY ($1);

-- imagesSql.lockById
-- binds: $1 id
SELECT
  i.id,
  i.owner_id AS "ownerId",
  i.alt,
  i.width,
  i.height,
  i.format,
  i.bytes,
  i.variants,
  i.created_at AS "createdAt"
FROM
  images i
WHERE
  i.id = $1
FOR UPDATE;

-- imagesSql.byOwner
-- binds: $1 ownerId
SELECT
  i.id,
  i.owner_id AS "ownerId",
  i.alt,
  i.width,
  i.height,
  i.format,
  i.bytes,
  i.variants,
  i.created_at AS "createdAt"
FROM
  images i
WHERE
  i.owner_id = $1;

-- imagesSql.kept
-- binds: $1 ids
SELECT
  i.id
FROM
  images i
WHERE
  i.id = ANY ($1)
UNION ALL
SELECT
  u.id
FROM
  image_uploads u
WHERE
  u.id = ANY ($1);

-- imagesSql.beginUpload
-- binds: $1 id, $2 expiresAt
INSERT INTO
  image_uploads (id, expires_at)
VALUES
  ($1, $2);

-- imagesSql.endUpload
-- binds: $1 id
DELETE FROM image_uploads
WHERE
  id = $1;

-- imagesSql.abandonedUploads
-- binds: $1 now, $2 limit
SELECT
  u.id
FROM
  image_uploads u
WHERE
  u.expires_at < $1
ORDER BY
  u.expires_at
LIMIT
  $2;

-- imagesSql.claimAbandoned
-- binds: $1 id, $2 now
DELETE FROM image_uploads
WHERE
  id = $1
  AND expires_at < $2;

-- imagesSql.page
-- binds: $1 ownerId, $2 first
SELECT
  i.id,
  i.owner_id AS "ownerId",
  i.alt,
  i.width,
  i.height,
  i.format,
  i.bytes,
  i.variants,
  i.created_at AS "createdAt"
FROM
  images i
WHERE
  i.owner_id = $1
ORDER BY
  i.created_at DESC,
  i.id DESC
LIMIT
  $2;

-- imagesSql.pageAfter
-- binds: $1 ownerId, $2 afterCreatedAt, $3 afterId, $4 first
SELECT
  i.id,
  i.owner_id AS "ownerId",
  i.alt,
  i.width,
  i.height,
  i.format,
  i.bytes,
  i.variants,
  i.created_at AS "createdAt"
FROM
  images i
WHERE
  i.owner_id = $1
  AND (i.created_at, i.id) < ($2, $3)
ORDER BY
  i.created_at DESC,
  i.id DESC
LIMIT
  $4;

-- imagesSql.count
-- binds: $1 ownerId
SELECT
  COUNT(*) AS count
FROM
  images i
WHERE
  i.owner_id = $1;

-- imagesSql.updateAlt
-- binds: $1 alt, $2 id
UPDATE images
SET
  alt = $1
WHERE
  id = $2;

-- imagesSql.delete
-- binds: $1 id
DELETE FROM images
WHERE
  id = $1;

-- imagesSql.coverOf
-- binds: $1 id
SELECT
  p.id,
  p.title
FROM
  posts p
WHERE
  p.cover_image_id = $1
ORDER BY
  p.id
LIMIT
  20;

-- imagesSql.avatarOf
-- binds: $1 id
SELECT
  u.id,
  u.handle
FROM
  users u
WHERE
  u.avatar_image_id = $1
ORDER BY
  u.id
LIMIT
  20;
