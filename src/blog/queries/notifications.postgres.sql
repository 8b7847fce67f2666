-- Generated from src/blog/notifications/notifications.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- notificationsSql.page
-- binds: $1 recipientId, $2 first
SELECT
  n.id,
  n.recipient_id AS "recipientId",
  n.actor_id AS "actorId",
  n.kind,
  n.post_id AS "postId",
  n.comment_id AS "commentId",
  n.created_at AS "createdAt",
  n.read_at AS "readAt"
FROM
  notifications n
WHERE
  n.recipient_id = $1
  AND (
    n.post_id IS NULL
    OR EXISTS (
      SELECT
        1
      FROM
        posts p
      WHERE
        p.id = n.post_id
        AND p.published_at IS NOT NULL
    )
  )
ORDER BY
  n.id DESC
LIMIT
  $2;

-- notificationsSql.pageAfter
-- binds: $1 recipientId, $2 afterId, $3 first
SELECT
  n.id,
  n.recipient_id AS "recipientId",
  n.actor_id AS "actorId",
  n.kind,
  n.post_id AS "postId",
  n.comment_id AS "commentId",
  n.created_at AS "createdAt",
  n.read_at AS "readAt"
FROM
  notifications n
WHERE
  n.recipient_id = $1
  AND n.id < $2
  AND (
    n.post_id IS NULL
    OR EXISTS (
      SELECT
        1
      FROM
        posts p
      WHERE
        p.id = n.post_id
        AND p.published_at IS NOT NULL
    )
  )
ORDER BY
  n.id DESC
LIMIT
  $3;

-- notificationsSql.unreadPage
-- binds: $1 recipientId, $2 first
SELECT
  n.id,
  n.recipient_id AS "recipientId",
  n.actor_id AS "actorId",
  n.kind,
  n.post_id AS "postId",
  n.comment_id AS "commentId",
  n.created_at AS "createdAt",
  n.read_at AS "readAt"
FROM
  notifications n
WHERE
  n.recipient_id = $1
  AND n.read_at IS NULL
  AND (
    n.post_id IS NULL
    OR EXISTS (
      SELECT
        1
      FROM
        posts p
      WHERE
        p.id = n.post_id
        AND p.published_at IS NOT NULL
    )
  )
ORDER BY
  n.id DESC
LIMIT
  $2;

-- notificationsSql.unreadPageAfter
-- binds: $1 recipientId, $2 afterId, $3 first
SELECT
  n.id,
  n.recipient_id AS "recipientId",
  n.actor_id AS "actorId",
  n.kind,
  n.post_id AS "postId",
  n.comment_id AS "commentId",
  n.created_at AS "createdAt",
  n.read_at AS "readAt"
FROM
  notifications n
WHERE
  n.recipient_id = $1
  AND n.read_at IS NULL
  AND n.id < $2
  AND (
    n.post_id IS NULL
    OR EXISTS (
      SELECT
        1
      FROM
        posts p
      WHERE
        p.id = n.post_id
        AND p.published_at IS NOT NULL
    )
  )
ORDER BY
  n.id DESC
LIMIT
  $3;

-- notificationsSql.countUnread
-- binds: $1 recipientId
SELECT
  COUNT(*) AS count
FROM
  notifications n
WHERE
  n.recipient_id = $1
  AND n.read_at IS NULL
  AND (
    n.post_id IS NULL
    OR EXISTS (
      SELECT
        1
      FROM
        posts p
      WHERE
        p.id = n.post_id
        AND p.published_at IS NOT NULL
    )
  );

-- notificationsSql.byIds
-- binds: $1 ids
SELECT
  n.id,
  n.recipient_id AS "recipientId",
  n.actor_id AS "actorId",
  n.kind,
  n.post_id AS "postId",
  n.comment_id AS "commentId",
  n.created_at AS "createdAt",
  n.read_at AS "readAt"
FROM
  notifications n
WHERE
  n.id = ANY ($1)
  AND (
    n.post_id IS NULL
    OR EXISTS (
      SELECT
        1
      FROM
        posts p
      WHERE
        p.id = n.post_id
        AND p.published_at IS NOT NULL
    )
  );

-- notificationsSql.ownedById
-- binds: $1 id, $2 recipientId
SELECT
  n.id
FROM
  notifications n
WHERE
  n.id = $1
  AND n.recipient_id = $2
  AND (
    n.post_id IS NULL
    OR EXISTS (
      SELECT
        1
      FROM
        posts p
      WHERE
        p.id = n.post_id
        AND p.published_at IS NOT NULL
    )
  );

-- notificationsSql.ofPublication
-- binds: $1 postId, $2 actorId, $3 recipientIds
SELECT
  n.id,
  n.recipient_id AS "recipientId",
  n.actor_id AS "actorId",
  n.kind,
  n.post_id AS "postId",
  n.comment_id AS "commentId",
  n.created_at AS "createdAt",
  n.read_at AS "readAt"
FROM
  notifications n
WHERE
  n.post_id = $1
  AND n.actor_id = $2
  AND n.kind = 'FOLLOWEE_PUBLISHED'
  AND n.recipient_id = ANY ($3)
  AND (
    n.post_id IS NULL
    OR EXISTS (
      SELECT
        1
      FROM
        posts p
      WHERE
        p.id = n.post_id
        AND p.published_at IS NOT NULL
    )
  );

-- notificationsSql.insert
-- binds: $1 id, $2 recipientId, $3 actorId, $4 kind, $5 postId, $6 commentId, $7 createdAt
INSERT INTO
  notifications (
    id,
    recipient_id,
    actor_id,
    kind,
    post_id,
    comment_id,
    created_at
  )
SELECT
  CAST($1 AS varchar),
  CAST($2 AS varchar),
  CAST($3 AS varchar),
  CAST($4 AS varchar),
  CAST($5 AS varchar),
  CAST($6 AS varchar),
  CAST($7 AS timestamptz);

-- notificationsSql.admins
SELECT
  u.id
FROM
  users u
WHERE
  u.role = 'admin';

-- notificationsSql.insertUnlessUnread
-- binds: $1 id, $2 recipientId, $3 actorId, $4 kind, $5 postId, $6 commentId, $7 createdAt
INSERT INTO
  notifications (
    id,
    recipient_id,
    actor_id,
    kind,
    post_id,
    comment_id,
    created_at
  )
SELECT
  CAST($1 AS varchar),
  CAST($2 AS varchar),
  CAST($3 AS varchar),
  CAST($4 AS varchar),
  CAST($5 AS varchar),
  CAST($6 AS varchar),
  CAST($7 AS timestamptz)
WHERE
  NOT EXISTS (
    SELECT
      1
    FROM
      notifications u
    WHERE
      u.recipient_id = $2
      AND u.actor_id = $3
      AND u.kind = $4
      AND u.post_id = $5
      AND u.read_at IS NULL
  );

-- notificationsSql.insertUnlessUnreadNoPost
-- binds: $1 id, $2 recipientId, $3 actorId, $4 kind, $5 postId, $6 commentId, $7 createdAt
INSERT INTO
  notifications (
    id,
    recipient_id,
    actor_id,
    kind,
    post_id,
    comment_id,
    created_at
  )
SELECT
  CAST($1 AS varchar),
  CAST($2 AS varchar),
  CAST($3 AS varchar),
  CAST($4 AS varchar),
  CAST($5 AS varchar),
  CAST($6 AS varchar),
  CAST($7 AS timestamptz)
WHERE
  NOT EXISTS (
    SELECT
      1
    FROM
      notifications u
    WHERE
      u.recipient_id = $2
      AND u.actor_id = $3
      AND u.kind = $4
      AND u.post_id IS NULL
      AND u.read_at IS NULL
  );

-- notificationsSql.insertUnlessUnreadComment
-- binds: $1 id, $2 recipientId, $3 actorId, $4 kind, $5 postId, $6 commentId, $7 createdAt
INSERT INTO
  notifications (
    id,
    recipient_id,
    actor_id,
    kind,
    post_id,
    comment_id,
    created_at
  )
SELECT
  CAST($1 AS varchar),
  CAST($2 AS varchar),
  CAST($3 AS varchar),
  CAST($4 AS varchar),
  CAST($5 AS varchar),
  CAST($6 AS varchar),
  CAST($7 AS timestamptz)
WHERE
  NOT EXISTS (
    SELECT
      1
    FROM
      notifications u
    WHERE
      u.recipient_id = $2
      AND u.actor_id = $3
      AND u.kind = $4
      AND u.post_id = $5
      AND u.read_at IS NULL
      AND u.comment_id = $6
  );

-- notificationsSql.withdrawAboutComment
-- binds: $1 commentId
DELETE FROM notifications
WHERE
  comment_id = $1;

-- notificationsSql.insertForFollowers
-- binds: $1 idPrefix, $2 actorId, $3 postId, $4 createdAt, $5 after, $6 chunk
INSERT INTO
  notifications (
    id,
    recipient_id,
    actor_id,
    kind,
    post_id,
    created_at
  )
SELECT
  CAST($1 AS text) || '-7' || substr(CAST(gen_random_uuid() AS text), 16),
  f.follower_id,
  CAST($2 AS varchar),
  'FOLLOWEE_PUBLISHED',
  CAST($3 AS varchar),
  CAST($4 AS timestamptz)
FROM
  follows f
WHERE
  f.followee_id = $2
  AND f.follower_id > $5
ORDER BY
  f.follower_id
LIMIT
  $6;

-- notificationsSql.lastOfChunk
-- binds: $1 actorId, $2 after, $3 offset
SELECT
  f.follower_id AS "followerId"
FROM
  follows f
WHERE
  f.followee_id = $1
  AND f.follower_id > $2
ORDER BY
  f.follower_id
LIMIT
  1
OFFSET
  $3;

-- notificationsSql.enqueuePublication
-- binds: $1 postId, $2 actorId, $3 createdAt
INSERT INTO
  publication_fan_outs (post_id, actor_id, created_at)
VALUES
  ($1, $2, $3);

-- notificationsSql.anyPendingPublication
SELECT
  id
FROM
  publication_fan_outs
WHERE
  parked_at IS NULL
LIMIT
  1;

-- notificationsSql.claimPublications
-- binds: $1 fromId, $2 limit
SELECT
  f.id,
  f.post_id AS "postId",
  f.actor_id AS "actorId",
  f.created_at AS "createdAt",
  f.after_follower AS "afterFollower",
  f.attempts
FROM
  publication_fan_outs f
  JOIN users a ON a.id = f.actor_id
  JOIN posts p ON p.id = f.post_id
WHERE
  f.parked_at IS NULL
ORDER BY
  CASE
    WHEN f.id >= $1 THEN 0
    ELSE 1
  END,
  f.id
LIMIT
  $2
FOR KEY SHARE OF
  a,
  p SKIP LOCKED
FOR UPDATE OF
  f SKIP LOCKED;

-- notificationsSql.cancelPublication
-- binds: $1 postId
DELETE FROM publication_fan_outs
WHERE
  post_id = $1;

-- notificationsSql.withdrawAboutPost
-- binds: $1 postId
DELETE FROM notifications
WHERE
  post_id = $1
  AND read_at IS NULL;

-- notificationsSql.advancePublication
-- binds: $1 last, $2 id
UPDATE publication_fan_outs
SET
  after_follower = $1
WHERE
  id = $2;

-- notificationsSql.releasePublications
-- binds: $1 ids
DELETE FROM publication_fan_outs
WHERE
  id = ANY ($1);

-- notificationsSql.failPublication
-- binds: $1 parkedAt, $2 id
UPDATE publication_fan_outs
SET
  attempts = attempts + 1,
  parked_at = CAST($1 AS timestamptz)
WHERE
  id = $2;

-- notificationsSql.lockTimeout
-- planned for each run's values
SET
  LOCAL lock_timeout = 2000;

-- notificationsSql.withdraw
-- binds: $1 recipientId, $2 actorId, $3 kind, $4 postId
DELETE FROM notifications
WHERE
  recipient_id = $1
  AND actor_id = $2
  AND kind = $3
  AND post_id = $4
  AND read_at IS NULL;

-- notificationsSql.withdrawNoPost
-- binds: $1 recipientId, $2 actorId, $3 kind
DELETE FROM notifications
WHERE
  recipient_id = $1
  AND actor_id = $2
  AND kind = $3
  AND post_id IS NULL
  AND read_at IS NULL;

-- notificationsSql.withdrawComment
-- binds: $1 recipientId, $2 actorId, $3 kind, $4 postId, $5 commentId
DELETE FROM notifications
WHERE
  recipient_id = $1
  AND actor_id = $2
  AND kind = $3
  AND post_id = $4
  AND read_at IS NULL
  AND comment_id = $5;

-- notificationsSql.markAllRead
-- binds: $1 readAt, $2 recipientId
UPDATE notifications
SET
  read_at = $1
WHERE
  recipient_id = $2
  AND read_at IS NULL
  AND (
    notifications.post_id IS NULL
    OR EXISTS (
      SELECT
        1
      FROM
        posts p
      WHERE
        p.id = notifications.post_id
        AND p.published_at IS NOT NULL
    )
  );

-- notificationsSql.markReadUpTo
-- binds: $1 readAt, $2 recipientId, $3 upTo
UPDATE notifications
SET
  read_at = $1
WHERE
  recipient_id = $2
  AND read_at IS NULL
  AND id <= $3
  AND (
    notifications.post_id IS NULL
    OR EXISTS (
      SELECT
        1
      FROM
        posts p
      WHERE
        p.id = notifications.post_id
        AND p.published_at IS NOT NULL
    )
  );
