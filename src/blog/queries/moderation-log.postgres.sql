-- Generated from src/blog/moderation/moderation-log.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- moderationLogSql.insert
-- binds: $1 id, $2 actorId, $3 action, $4 targetType, $5 targetId, $6 reason, $7 summary, $8 createdAt
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
  ($1, $2, $3, $4, $5, $6, $7, $8);

-- moderationLogSql.page
-- binds: $1 first
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
  $1;

-- moderationLogSql.pageAfter
-- binds: $1 after, $2 first
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
  l.id < $1
ORDER BY
  l.id DESC
LIMIT
  $2;

-- moderationLogSql.count
SELECT
  COUNT(*) AS count
FROM
  moderation_log;
