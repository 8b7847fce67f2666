-- Generated from src/blog/moderation/moderation-queue.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- moderationQueueSql.byId
-- binds: $1 id
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
  i.id = $1;

-- moderationQueueSql.openPage
-- binds: $1 first
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
  $1;

-- moderationQueueSql.openPageAfter
-- binds: $1 afterId, $2 first
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
  AND i.id > $1
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
  $2;

-- moderationQueueSql.resolvedPage
-- binds: $1 first
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
  $1;

-- moderationQueueSql.resolvedPageAfter
-- binds: $1 afterAt, $2 afterId, $3 first
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
    i.resolved_at < $1
    OR (
      i.resolved_at = $1
      AND i.id < $2
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
  $3;

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
-- binds: $1 ids
SELECT
  r.item_id AS key,
  r.reason,
  COUNT(*) AS count
FROM
  reports r
WHERE
  r.item_id = ANY ($1)
GROUP BY
  r.item_id,
  r.reason;

-- moderationQueueSql.reportsOf
-- binds: $1 keys, $2 first
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
      unnest(CAST($1 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      reports x
    WHERE
      x.item_id = k.value
    ORDER BY
      x.id
    LIMIT
      $2
  ) t
  JOIN reports r ON r.id = t.id
ORDER BY
  r.id;

-- moderationQueueSql.reportsOfAfter
-- binds: $1 keys, $2 after, $3 first
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
      unnest(CAST($1 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      reports x
    WHERE
      x.item_id = k.value
      AND x.id > $2
    ORDER BY
      x.id
    LIMIT
      $3
  ) t
  JOIN reports r ON r.id = t.id
ORDER BY
  r.id;

-- moderationQueueSql.resolve
-- binds: $1 action, $2 resolvedBy, $3 at, $4 id
UPDATE moderation_items
SET
  status = 'resolved',
  action = $1,
  resolved_by = $2,
  resolved_at = $3
WHERE
  id = $4
  AND status = 'open';

-- reportsSql.lockReporter
-- binds: $1 id
SELECT
  u.id
FROM
  users u
WHERE
  u.id = $1
FOR NO KEY UPDATE;

-- reportsSql.reported
-- binds: $1 reporterId, $2 targetType, $3 targetId
SELECT
  1 AS one
FROM
  reports r
WHERE
  r.reporter_id = $1
  AND r.target_type = $2
  AND r.target_id = $3;

-- reportsSql.recent
-- binds: $1 reporterId, $2 since
SELECT
  COUNT(*) AS count,
  MIN(r.created_at) AS oldest
FROM
  reports r
WHERE
  r.reporter_id = $1
  AND r.created_at > $2;

-- reportsSql.openItem
-- binds: $1 id, $2 targetType, $3 targetId, $4 postId, $5 createdAt
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
  ($1, $2, $3, $4, 'open', $5)
ON CONFLICT DO NOTHING;

-- reportsSql.openItemOf
-- binds: $1 targetType, $2 targetId
SELECT
  i.id
FROM
  moderation_items i
WHERE
  i.target_type = $1
  AND i.target_id = $2
  AND i.status = 'open'
FOR UPDATE;

-- reportsSql.insert
-- binds: $1 id, $2 itemId, $3 reporterId, $4 targetType, $5 targetId, $6 reason, $7 note, $8 createdAt
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
  ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT DO NOTHING;

-- reportsSql.reporters
-- binds: $1 itemId
SELECT
  COUNT(DISTINCT r.reporter_id) AS count
FROM
  reports r
WHERE
  r.item_id = $1;
