-- Generated from src/blog/comments/comments.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- commentsSql.byId
-- binds: $1 id
SELECT
  c.id,
  c.text,
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt"
FROM
  comments c
WHERE
  c.id = $1;

-- commentsSql.byIds
-- binds: $1 ids
SELECT
  c.id,
  c.text,
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt"
FROM
  comments c
WHERE
  c.id = ANY ($1);

-- commentsSql.pagesByPosts
-- binds: $1 postIds, $2 first
SELECT
  c.id,
  c.text,
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt"
FROM
  (
    SELECT
      unnest(CAST($1 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
    ORDER BY
      x.id
    LIMIT
      $2
  ) t
  JOIN comments c ON c.id = t.id
ORDER BY
  c.id;

-- commentsSql.pagesByPostsAfter
-- binds: $1 postIds, $2 after, $3 first
SELECT
  c.id,
  c.text,
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt"
FROM
  (
    SELECT
      unnest(CAST($1 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.id > $2
    ORDER BY
      x.id
    LIMIT
      $3
  ) t
  JOIN comments c ON c.id = t.id
ORDER BY
  c.id;

-- commentsSql.countByPosts
-- binds: $1 postIds
SELECT
  c.post_id AS key,
  COUNT(*) AS count
FROM
  comments c
WHERE
  c.post_id = ANY ($1)
GROUP BY
  c.post_id;

-- commentsSql.insert
-- binds: $1 id, $2 text, $3 postId, $4 authorId, $5 createdAt
INSERT INTO
  comments (id, text, post_id, author_id, created_at)
VALUES
  ($1, $2, $3, $4, $5);

-- commentsSql.delete
-- binds: $1 id
DELETE FROM comments
WHERE
  id = $1;
