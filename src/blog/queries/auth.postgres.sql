-- Generated from src/blog/auth/auth.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- deleteAccountSql.likes
-- binds: $1 id
DELETE FROM likes
WHERE
  post_id IN (
    SELECT
      p.id
    FROM
      posts p
    WHERE
      p.author_id = $1
  )
  OR user_id = $1;

-- deleteAccountSql.comments
-- binds: $1 id
DELETE FROM comments
WHERE
  post_id IN (
    SELECT
      p.id
    FROM
      posts p
    WHERE
      p.author_id = $1
  )
  OR author_id = $1;

-- deleteAccountSql.posts
-- binds: $1 id
DELETE FROM posts
WHERE
  author_id = $1;

-- deleteAccountSql.follows
-- binds: $1 id
DELETE FROM follows
WHERE
  follower_id = $1
  OR followee_id = $1;

-- deleteAccountSql.user
-- binds: $1 id
DELETE FROM users
WHERE
  id = $1;
