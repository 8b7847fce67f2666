-- Generated from src/blog/moderation/moderation-queue.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- moderationQueueSql.byId
-- binds: id
SELECT
  i.id,
  i.target_type AS "targetType",
  i.target_id AS "targetId",
  i.post_id AS "postId",
  i.status,
  i.action,
  i.resolved_by AS "resolvedById",
  i.created_at AS "createdAt",
  i.resolved_at AS "resolvedAt"
FROM
  moderation_items i
WHERE
  i.id = + ?;

-- moderationQueueSql.openPage
-- binds: first
SELECT
  i.id,
  i.target_type AS "targetType",
  i.target_id AS "targetId",
  i.post_id AS "postId",
  i.status,
  i.action,
  i.resolved_by AS "resolvedById",
  i.created_at AS "createdAt",
  i.resolved_at AS "resolvedAt"
FROM
  moderation_items i
WHERE
  i.status = 'open'
  AND (
    i.target_type = 'POST'
    OR EXISTS (
      SELECT
        1
      FROM
        comments c
      WHERE
        c.id = i.target_id
    )
  )
ORDER BY
  i.id
LIMIT
  + ?;

-- moderationQueueSql.openPageAfter
-- binds: afterId, first
SELECT
  i.id,
  i.target_type AS "targetType",
  i.target_id AS "targetId",
  i.post_id AS "postId",
  i.status,
  i.action,
  i.resolved_by AS "resolvedById",
  i.created_at AS "createdAt",
  i.resolved_at AS "resolvedAt"
FROM
  moderation_items i
WHERE
  i.status = 'open'
  AND i.id > + ?
  AND (
    i.target_type = 'POST'
    OR EXISTS (
      SELECT
        1
      FROM
        comments c
      WHERE
        c.id = i.target_id
    )
  )
ORDER BY
  i.id
LIMIT
  + ?;

-- moderationQueueSql.resolvedPage
-- binds: first
SELECT
  i.id,
  i.target_type AS "targetType",
  i.target_id AS "targetId",
  i.post_id AS "postId",
  i.status,
  i.action,
  i.resolved_by AS "resolvedById",
  i.created_at AS "createdAt",
  i.resolved_at AS "resolvedAt"
FROM
  moderation_items i
WHERE
  i.status = 'resolved'
  AND (
    i.target_type = 'POST'
    OR EXISTS (
      SELECT
        1
      FROM
        comments c
      WHERE
        c.id = i.target_id
    )
  )
ORDER BY
  i.resolved_at DESC,
  i.id DESC
LIMIT
  + ?;

-- moderationQueueSql.resolvedPageAfter
-- binds: afterAt, afterAt, afterId, first
SELECT
  i.id,
  i.target_type AS "targetType",
  i.target_id AS "targetId",
  i.post_id AS "postId",
  i.status,
  i.action,
  i.resolved_by AS "resolvedById",
  i.created_at AS "createdAt",
  i.resolved_at AS "resolvedAt"
FROM
  moderation_items i
WHERE
  i.status = 'resolved'
  AND (
    i.resolved_at < + ?
    OR (
      i.resolved_at = + ?
      AND i.id < + ?
    )
  )
  AND (
    i.target_type = 'POST'
    OR EXISTS (
      SELECT
        1
      FROM
        comments c
      WHERE
        c.id = i.target_id
    )
  )
ORDER BY
  i.resolved_at DESC,
  i.id DESC
LIMIT
  + ?;

-- moderationQueueSql.countOpen
SELECT
  COUNT(*) AS count
FROM
  moderation_items i
WHERE
  i.status = 'open'
  AND (
    i.target_type = 'POST'
    OR EXISTS (
      SELECT
        1
      FROM
        comments c
      WHERE
        c.id = i.target_id
    )
  );

-- moderationQueueSql.countResolved
SELECT
  COUNT(*) AS count
FROM
  moderation_items i
WHERE
  i.status = 'resolved'
  AND (
    i.target_type = 'POST'
    OR EXISTS (
      SELECT
        1
      FROM
        comments c
      WHERE
        c.id = i.target_id
    )
  );

-- moderationQueueSql.reasons
-- binds: ids
SELECT
  r.item_id AS key,
  r.reason,
  COUNT(*) AS count
FROM
  reports r
WHERE
  r.item_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
GROUP BY
  r.item_id,
  r.reason;

-- moderationQueueSql.reportsOf
-- binds: keys, first
SELECT
  r.id,
  r.item_id AS "itemId",
  r.reporter_id AS "reporterId",
  r.target_type AS "targetType",
  r.target_id AS "targetId",
  r.reason,
  r.note,
  r.created_at AS "createdAt"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN reports r ON r.id IN (
    SELECT
      x.id
    FROM
      reports x
    WHERE
      x.item_id = k.value
    ORDER BY
      x.id
    LIMIT
      + ?
  )
ORDER BY
  r.id;

-- moderationQueueSql.reportsOfAfter
-- binds: keys, after, first
SELECT
  r.id,
  r.item_id AS "itemId",
  r.reporter_id AS "reporterId",
  r.target_type AS "targetType",
  r.target_id AS "targetId",
  r.reason,
  r.note,
  r.created_at AS "createdAt"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN reports r ON r.id IN (
    SELECT
      x.id
    FROM
      reports x
    WHERE
      x.item_id = k.value
      AND x.id > + ?
    ORDER BY
      x.id
    LIMIT
      + ?
  )
ORDER BY
  r.id;

-- moderationQueueSql.resolve
-- binds: action, resolvedBy, at, id
UPDATE moderation_items
SET
  status = 'resolved',
  action = + ?,
  resolved_by = + ?,
  resolved_at = + ?
WHERE
  id = + ?
  AND status = 'open';

-- reportsSql.lockReporter
-- binds: id
SELECT
  u.id
FROM
  users u
WHERE
  u.id = + ?;

-- reportsSql.reported
-- binds: reporterId, targetType, targetId
SELECT
  1 AS one
FROM
  reports r
WHERE
  r.reporter_id = + ?
  AND r.target_type = + ?
  AND r.target_id = + ?;

-- reportsSql.recent
-- binds: reporterId, since
SELECT
  COUNT(*) AS count,
  MIN(r.created_at) AS oldest
FROM
  reports r
WHERE
  r.reporter_id = + ?
  AND r.created_at > + ?;

-- reportsSql.openItem
-- binds: id, targetType, targetId, postId, createdAt
INSERT INTO
  moderation_items (
    id,
    target_type,
    target_id,
    post_id,
    status,
    created_at
  )
VALUES
  (+ ?, + ?, + ?, + ?, 'open', + ?)
ON CONFLICT DO NOTHING;

-- reportsSql.openItemOf
-- binds: targetType, targetId
SELECT
  i.id
FROM
  moderation_items i
WHERE
  i.target_type = + ?
  AND i.target_id = + ?
  AND i.status = 'open';

-- reportsSql.insert
-- binds: id, itemId, reporterId, targetType, targetId, reason, note, createdAt
INSERT INTO
  reports (
    id,
    item_id,
    reporter_id,
    target_type,
    target_id,
    reason,
    note,
    created_at
  )
VALUES
  (+ ?, + ?, + ?, + ?, + ?, + ?, + ?, + ?)
ON CONFLICT DO NOTHING;

-- reportsSql.reporters
-- binds: itemId
SELECT
  COUNT(DISTINCT r.reporter_id) AS count
FROM
  reports r
WHERE
  r.item_id = + ?;
