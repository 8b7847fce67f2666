-- Generated from src/blog/follows/follows.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- followsSql.follow
-- binds: $1 followerId, $2 followeeId, $3 createdAt
INSERT INTO
  follows (follower_id, followee_id, created_at)
VALUES
  ($1, $2, $3)
ON CONFLICT DO NOTHING;

-- followsSql.unfollow
-- binds: $1 followerId, $2 followeeId
DELETE FROM follows
WHERE
  follower_id = $1
  AND followee_id = $2;

-- followsSql.countFollowers
-- binds: $1 userIds
SELECT
  f.followee_id AS key,
  COUNT(*) AS count
FROM
  follows f
WHERE
  f.followee_id = ANY ($1)
GROUP BY
  f.followee_id;

-- followsSql.countFollowing
-- binds: $1 userIds
SELECT
  f.follower_id AS key,
  COUNT(*) AS count
FROM
  follows f
WHERE
  f.follower_id = ANY ($1)
GROUP BY
  f.follower_id;

-- followsSql.followedBy
-- binds: $1 followerId, $2 userIds
SELECT
  f.followee_id AS key
FROM
  follows f
WHERE
  f.follower_id = $1
  AND f.followee_id = ANY ($2);

-- followsSql.followsAnyone
-- binds: $1 followerId
SELECT
  1 AS yes
FROM
  follows f
WHERE
  f.follower_id = $1
LIMIT
  1;
