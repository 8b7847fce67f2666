-- Generated from src/blog/auth/auth.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- deleteAccountSql.likes
-- binds: id, id
DELETE FROM likes
WHERE
  post_id IN (
    SELECT
      p.id
    FROM
      posts p
    WHERE
      p.author_id = ?
  )
  OR user_id = ?;

-- deleteAccountSql.comments
-- binds: id, id
DELETE FROM comments
WHERE
  post_id IN (
    SELECT
      p.id
    FROM
      posts p
    WHERE
      p.author_id = ?
  )
  OR author_id = ?;

-- deleteAccountSql.posts
-- binds: id
DELETE FROM posts
WHERE
  author_id = ?;

-- deleteAccountSql.follows
-- binds: id, id
DELETE FROM follows
WHERE
  follower_id = ?
  OR followee_id = ?;

-- deleteAccountSql.user
-- binds: id
DELETE FROM users
WHERE
  id = ?;
