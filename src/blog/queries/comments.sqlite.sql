-- Generated from src/blog/comments/comments.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- commentsSql.byId
-- binds: id
SELECT
  c.id,
  c.text,
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt"
FROM
  comments c
WHERE
  c.id = + ?;

-- commentsSql.byIds
-- binds: ids
SELECT
  c.id,
  c.text,
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt"
FROM
  comments c
WHERE
  c.id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- commentsSql.pagesByPosts
-- binds: postIds, first
SELECT
  c.id,
  c.text,
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
    ORDER BY
      x.id
    LIMIT
      + ?
  )
ORDER BY
  c.id;

-- commentsSql.pagesByPostsAfter
-- binds: postIds, after, first
SELECT
  c.id,
  c.text,
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.id > + ?
    ORDER BY
      x.id
    LIMIT
      + ?
  )
ORDER BY
  c.id;

-- commentsSql.countByPosts
-- binds: postIds
SELECT
  c.post_id AS key,
  COUNT(*) AS count
FROM
  comments c
WHERE
  c.post_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
GROUP BY
  c.post_id;

-- commentsSql.insert
-- binds: id, text, postId, authorId, createdAt
INSERT INTO
  comments (id, text, post_id, author_id, created_at)
VALUES
  (+ ?, + ?, + ?, + ?, + ?);

-- commentsSql.delete
-- binds: id
DELETE FROM comments
WHERE
  id = + ?;
