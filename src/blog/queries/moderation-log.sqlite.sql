-- Generated from src/blog/moderation/moderation-log.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- moderationLogSql.insert
-- binds: id, actorId, action, targetType, targetId, reason, summary, createdAt
INSERT INTO
  moderation_log (
    id,
    actor_id,
    action,
    target_type,
    target_id,
    reason,
    summary,
    created_at
  )
VALUES
  (+ ?, + ?, + ?, + ?, + ?, + ?, + ?, + ?);

-- moderationLogSql.page
-- binds: first
SELECT
  l.id,
  l.actor_id AS "actorId",
  l.action,
  l.target_type AS "targetType",
  l.target_id AS "targetId",
  l.reason,
  l.summary,
  l.created_at AS "createdAt"
FROM
  moderation_log l
ORDER BY
  l.id DESC
LIMIT
  + ?;

-- moderationLogSql.pageAfter
-- binds: after, first
SELECT
  l.id,
  l.actor_id AS "actorId",
  l.action,
  l.target_type AS "targetType",
  l.target_id AS "targetId",
  l.reason,
  l.summary,
  l.created_at AS "createdAt"
FROM
  moderation_log l
WHERE
  l.id < + ?
ORDER BY
  l.id DESC
LIMIT
  + ?;

-- moderationLogSql.count
SELECT
  COUNT(*) AS count
FROM
  moderation_log;
