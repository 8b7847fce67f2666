-- Generated from src/blog/likes/likes.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- likesSql.like
-- binds: $1 postId, $2 userId, $3 createdAt
INSERT INTO
  likes (post_id, user_id, created_at)
VALUES
  ($1, $2, $3)
ON CONFLICT DO NOTHING;

-- likesSql.unlike
-- binds: $1 postId, $2 userId
DELETE FROM likes
WHERE
  post_id = $1
  AND user_id = $2;

-- likesSql.countByPosts
-- binds: $1 postIds
SELECT
  l.post_id AS key,
  COUNT(*) AS count
FROM
  likes l
WHERE
  l.post_id = ANY ($1)
GROUP BY
  l.post_id;

-- likesSql.likedBy
-- binds: $1 userId, $2 postIds
SELECT
  l.post_id AS key
FROM
  likes l
WHERE
  l.user_id = $1
  AND l.post_id = ANY ($2);
