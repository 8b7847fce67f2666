-- Generated from src/blog/likes/likes.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- likesSql.like
-- binds: postId, userId, createdAt
INSERT INTO
  likes (post_id, user_id, created_at)
VALUES
  (+ ?, + ?, + ?)
ON CONFLICT DO NOTHING;

-- likesSql.unlike
-- binds: postId, userId
DELETE FROM likes
WHERE
  post_id = + ?
  AND user_id = + ?;

-- likesSql.countByPosts
-- binds: postIds
SELECT
  l.post_id AS key,
  COUNT(*) AS count
FROM
  likes l
WHERE
  l.post_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
GROUP BY
  l.post_id;

-- likesSql.likedBy
-- binds: userId, postIds
SELECT
  l.post_id AS key
FROM
  likes l
WHERE
  l.user_id = + ?
  AND l.post_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );
