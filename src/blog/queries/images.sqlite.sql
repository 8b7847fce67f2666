-- Generated from src/blog/images/images.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- imagesSql.lockOwner
-- binds: id
SELECT
  u.id
FROM
  users u
WHERE
  u.id = + ?;

-- imagesSql.usedBytes
-- binds: ownerId
SELECT
  COALESCE(SUM(i.bytes), 0) AS bytes
FROM
  images i
WHERE
  i.owner_id = + ?;

-- imagesSql.insert
-- binds: id, ownerId, alt, width, height, format, bytes, variants, createdAt
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
  (+ ?, + ?, + ?, + ?, + ?, + ?, + ?, + ?, + ?);

-- imagesSql.byId
-- binds: id
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
  i.id = + ?;

-- imagesSql.byIds
-- binds: ids
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
  i.id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- imagesSql.lockById
-- binds: id
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
  i.id = + ?;

-- imagesSql.byOwner
-- binds: ownerId
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
  i.owner_id = + ?;

-- imagesSql.kept
-- binds: ids, ids
SELECT
  i.id
FROM
  images i
WHERE
  i.id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
UNION ALL
SELECT
  u.id
FROM
  image_uploads u
WHERE
  u.id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- imagesSql.beginUpload
-- binds: id, expiresAt
INSERT INTO
  image_uploads (id, expires_at)
VALUES
  (+ ?, + ?);

-- imagesSql.endUpload
-- binds: id
DELETE FROM image_uploads
WHERE
  id = + ?;

-- imagesSql.abandonedUploads
-- binds: now, limit
SELECT
  u.id
FROM
  image_uploads u
WHERE
  u.expires_at < + ?
ORDER BY
  u.expires_at
LIMIT
  + ?;

-- imagesSql.claimAbandoned
-- binds: id, now
DELETE FROM image_uploads
WHERE
  id = + ?
  AND expires_at < + ?;

-- imagesSql.page
-- binds: ownerId, first
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
  i.owner_id = + ?
ORDER BY
  i.created_at DESC,
  i.id DESC
LIMIT
  + ?;

-- imagesSql.pageAfter
-- binds: ownerId, afterCreatedAt, afterId, first
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
  i.owner_id = + ?
  AND (i.created_at, i.id) < (+ ?, + ?)
ORDER BY
  i.created_at DESC,
  i.id DESC
LIMIT
  + ?;

-- imagesSql.count
-- binds: ownerId
SELECT
  COUNT(*) AS count
FROM
  images i
WHERE
  i.owner_id = + ?;

-- imagesSql.updateAlt
-- binds: alt, id
UPDATE images
SET
  alt = + ?
WHERE
  id = + ?;

-- imagesSql.delete
-- binds: id
DELETE FROM images
WHERE
  id = + ?;

-- imagesSql.coverOf
-- binds: id
SELECT
  p.id,
  p.title
FROM
  posts p
WHERE
  p.cover_image_id = + ?
ORDER BY
  p.id
LIMIT
  20;

-- imagesSql.avatarOf
-- binds: id
SELECT
  u.id,
  u.handle
FROM
  users u
WHERE
  u.avatar_image_id = + ?
ORDER BY
  u.id
LIMIT
  20;
