-- Generated from src/blog/follows/follows.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- followsSql.follow
-- binds: followerId, followeeId, createdAt
INSERT INTO
  follows (follower_id, followee_id, created_at)
VALUES
  (+ ?, + ?, + ?)
ON CONFLICT DO NOTHING;

-- followsSql.unfollow
-- binds: followerId, followeeId
DELETE FROM follows
WHERE
  follower_id = + ?
  AND followee_id = + ?;

-- followsSql.countFollowers
-- binds: userIds
SELECT
  f.followee_id AS key,
  COUNT(*) AS count
FROM
  follows f
WHERE
  f.followee_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
GROUP BY
  f.followee_id;

-- followsSql.countFollowing
-- binds: userIds
SELECT
  f.follower_id AS key,
  COUNT(*) AS count
FROM
  follows f
WHERE
  f.follower_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
GROUP BY
  f.follower_id;

-- followsSql.followedBy
-- binds: followerId, userIds
SELECT
  f.followee_id AS key
FROM
  follows f
WHERE
  f.follower_id = + ?
  AND f.followee_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- followsSql.followsAnyone
-- binds: followerId
SELECT
  1 AS yes
FROM
  follows f
WHERE
  f.follower_id = + ?
LIMIT
  1;
