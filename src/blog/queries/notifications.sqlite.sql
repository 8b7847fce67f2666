-- Generated from src/blog/notifications/notifications.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- notificationsSql.page
-- binds: recipientId, first
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
  n.recipient_id = + ?
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
  + ?;

-- notificationsSql.pageAfter
-- binds: recipientId, afterId, first
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
  n.recipient_id = + ?
  AND n.id < + ?
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
  + ?;

-- notificationsSql.unreadPage
-- binds: recipientId, first
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
  n.recipient_id = + ?
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
  + ?;

-- notificationsSql.unreadPageAfter
-- binds: recipientId, afterId, first
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
  n.recipient_id = + ?
  AND n.read_at IS NULL
  AND n.id < + ?
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
  + ?;

-- notificationsSql.countUnread
-- binds: recipientId
SELECT
  COUNT(*) AS count
FROM
  notifications n
WHERE
  n.recipient_id = + ?
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
-- binds: ids
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
  n.id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
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
-- binds: id, recipientId
SELECT
  n.id
FROM
  notifications n
WHERE
  n.id = + ?
  AND n.recipient_id = + ?
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
-- binds: postId, actorId, recipientIds
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
  n.post_id = + ?
  AND n.actor_id = + ?
  AND n.kind = 'FOLLOWEE_PUBLISHED'
  AND n.recipient_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
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
-- binds: id, recipientId, actorId, kind, postId, commentId, createdAt
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
  + ?,
  + ?,
  + ?,
  + ?,
  + ?,
  + ?,
  + ?;

-- notificationsSql.admins
SELECT
  u.id
FROM
  users u
WHERE
  u.role = 'admin';

-- notificationsSql.insertUnlessUnread
-- binds: id, recipientId, actorId, kind, postId, commentId, createdAt, recipientId, actorId, kind, postId
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
  + ?,
  + ?,
  + ?,
  + ?,
  + ?,
  + ?,
  + ?
WHERE
  NOT EXISTS (
    SELECT
      1
    FROM
      notifications u
    WHERE
      u.recipient_id = + ?
      AND u.actor_id = + ?
      AND u.kind = + ?
      AND u.post_id = + ?
      AND u.read_at IS NULL
  );

-- notificationsSql.insertUnlessUnreadNoPost
-- binds: id, recipientId, actorId, kind, postId, commentId, createdAt, recipientId, actorId, kind
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
  + ?,
  + ?,
  + ?,
  + ?,
  + ?,
  + ?,
  + ?
WHERE
  NOT EXISTS (
    SELECT
      1
    FROM
      notifications u
    WHERE
      u.recipient_id = + ?
      AND u.actor_id = + ?
      AND u.kind = + ?
      AND u.post_id IS NULL
      AND u.read_at IS NULL
  );

-- notificationsSql.insertUnlessUnreadComment
-- binds: id, recipientId, actorId, kind, postId, commentId, createdAt, recipientId, actorId, kind, postId, commentId
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
  + ?,
  + ?,
  + ?,
  + ?,
  + ?,
  + ?,
  + ?
WHERE
  NOT EXISTS (
    SELECT
      1
    FROM
      notifications u
    WHERE
      u.recipient_id = + ?
      AND u.actor_id = + ?
      AND u.kind = + ?
      AND u.post_id = + ?
      AND u.read_at IS NULL
      AND u.comment_id = + ?
  );

-- notificationsSql.withdrawAboutComment
-- binds: commentId
DELETE FROM notifications
WHERE
  comment_id = + ?;

-- notificationsSql.insertForFollowers
-- binds: idPrefix, actorId, postId, createdAt, actorId, after, chunk
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
  + ? || '-7' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + abs(random()) % 4, 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))),
  f.follower_id,
  + ?,
  'FOLLOWEE_PUBLISHED',
  + ?,
  + ?
FROM
  follows f
WHERE
  f.followee_id = + ?
  AND f.follower_id > + ?
ORDER BY
  f.follower_id
LIMIT
  + ?;

-- notificationsSql.lastOfChunk
-- binds: actorId, after, offset
SELECT
  f.follower_id AS "followerId"
FROM
  follows f
WHERE
  f.followee_id = + ?
  AND f.follower_id > + ?
ORDER BY
  f.follower_id
LIMIT
  1
OFFSET
  + ?;

-- notificationsSql.enqueuePublication
-- binds: postId, actorId, createdAt
INSERT INTO
  publication_fan_outs (post_id, actor_id, created_at)
VALUES
  (+ ?, + ?, + ?);

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
-- binds: fromId, limit
SELECT
  f.id,
  f.post_id AS "postId",
  f.actor_id AS "actorId",
  f.created_at AS "createdAt",
  f.after_follower AS "afterFollower",
  f.attempts
FROM
  publication_fan_outs f
WHERE
  f.parked_at IS NULL
ORDER BY
  CASE
    WHEN f.id >= + ? THEN 0
    ELSE 1
  END,
  f.id
LIMIT
  + ?;

-- notificationsSql.cancelPublication
-- binds: postId
DELETE FROM publication_fan_outs
WHERE
  post_id = + ?;

-- notificationsSql.withdrawAboutPost
-- binds: postId
DELETE FROM notifications
WHERE
  post_id = + ?
  AND read_at IS NULL;

-- notificationsSql.advancePublication
-- binds: last, id
UPDATE publication_fan_outs
SET
  after_follower = + ?
WHERE
  id = + ?;

-- notificationsSql.releasePublications
-- binds: ids
DELETE FROM publication_fan_outs
WHERE
  id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- notificationsSql.failPublication
-- binds: parkedAt, id
UPDATE publication_fan_outs
SET
  attempts = attempts + 1,
  parked_at = + ?
WHERE
  id = + ?;

-- notificationsSql.lockTimeout
SELECT
  1;

-- notificationsSql.withdraw
-- binds: recipientId, actorId, kind, postId
DELETE FROM notifications
WHERE
  recipient_id = + ?
  AND actor_id = + ?
  AND kind = + ?
  AND post_id = + ?
  AND read_at IS NULL;

-- notificationsSql.withdrawNoPost
-- binds: recipientId, actorId, kind
DELETE FROM notifications
WHERE
  recipient_id = + ?
  AND actor_id = + ?
  AND kind = + ?
  AND post_id IS NULL
  AND read_at IS NULL;

-- notificationsSql.withdrawComment
-- binds: recipientId, actorId, kind, postId, commentId
DELETE FROM notifications
WHERE
  recipient_id = + ?
  AND actor_id = + ?
  AND kind = + ?
  AND post_id = + ?
  AND read_at IS NULL
  AND comment_id = + ?;

-- notificationsSql.markAllRead
-- binds: readAt, recipientId
UPDATE notifications
SET
  read_at = + ?
WHERE
  recipient_id = + ?
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
-- binds: readAt, recipientId, upTo
UPDATE notifications
SET
  read_at = + ?
WHERE
  recipient_id = + ?
  AND read_at IS NULL
  AND id <= + ?
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
