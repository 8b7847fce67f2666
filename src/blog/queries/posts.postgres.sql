-- Generated from src/blog/posts/posts.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- postSearchIndexSql.unindexed
SELECT
  0 AS count,
  NULL AS first,
  NULL AS last
WHERE
  FALSE;

-- postSearchIndexSql.index
SELECT
  1
WHERE
  FALSE;

-- postSearchIndexSql.markIndexed
SELECT
  1
WHERE
  FALSE;

-- postsSql.byId
-- binds: $1 id
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.id = $1;

-- postsSql.byIdWithAuthor
-- binds: $1 id
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt",
  u.id AS "author.id",
  u.name AS "author.name",
  u.email AS "author.email",
  u.handle AS "author.handle",
  u.avatar AS "author.avatar",
  u.role AS "author.role",
  u.token_version AS "author.tokenVersion",
  u.created_at AS "author.createdAt",
  u.updated_at AS "author.updatedAt"
FROM
  posts p
  JOIN users u ON u.id = p.author_id
WHERE
  p.id = $1;

-- postsSql.byIds
-- binds: $1 ids
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.id = ANY ($1);

-- postsSql.publishedAtOf
-- binds: $1 id
SELECT
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.id = $1;

-- postsSql.published
-- binds: $1 first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  $1;

-- postsSql.publishedAfter
-- binds: $1 afterPublishedAt, $2 afterId, $3 first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
  AND (p.published_at, p.id) < ($1, $2)
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  $3;

-- postsSql.byAuthor
-- binds: $1 authorId, $2 first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
  AND p.author_id = $1
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  $2;

-- postsSql.byAuthorAfter
-- binds: $1 authorId, $2 afterPublishedAt, $3 afterId, $4 first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
  AND p.author_id = $1
  AND (p.published_at, p.id) < ($2, $3)
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  $4;

-- postsSql.tagged
-- binds: $1 tags, $2 tagCount, $3 first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
  AND p.id IN (
    SELECT
      pt.post_id
    FROM
      post_tags pt
    WHERE
      pt.slug = ANY ($1)
    GROUP BY
      pt.post_id
    HAVING
      COUNT(*) = $2
  )
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  $3;

-- postsSql.taggedAfter
-- binds: $1 tags, $2 tagCount, $3 afterPublishedAt, $4 afterId, $5 first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
  AND p.id IN (
    SELECT
      pt.post_id
    FROM
      post_tags pt
    WHERE
      pt.slug = ANY ($1)
    GROUP BY
      pt.post_id
    HAVING
      COUNT(*) = $2
  )
  AND (p.published_at, p.id) < ($3, $4)
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  $5;

-- postsSql.taggedByAuthor
-- binds: $1 authorId, $2 tags, $3 tagCount, $4 first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
  AND p.author_id = $1
  AND p.id IN (
    SELECT
      pt.post_id
    FROM
      post_tags pt
    WHERE
      pt.slug = ANY ($2)
    GROUP BY
      pt.post_id
    HAVING
      COUNT(*) = $3
  )
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  $4;

-- postsSql.taggedByAuthorAfter
-- binds: $1 authorId, $2 tags, $3 tagCount, $4 afterPublishedAt, $5 afterId, $6 first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
  AND p.author_id = $1
  AND p.id IN (
    SELECT
      pt.post_id
    FROM
      post_tags pt
    WHERE
      pt.slug = ANY ($2)
    GROUP BY
      pt.post_id
    HAVING
      COUNT(*) = $3
  )
  AND (p.published_at, p.id) < ($4, $5)
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  $6;

-- postsSql.pagesByAuthors
-- binds: $1 authorIds, $2 first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  (
    SELECT
      unnest(CAST($1 AS varchar[])) AS value
  ) a
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      posts x
    WHERE
      x.author_id = a.value
      AND x.published_at IS NOT NULL
    ORDER BY
      x.published_at DESC,
      x.id DESC
    LIMIT
      $2
  ) t
  JOIN posts p ON p.id = t.id
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- postsSql.pagesByAuthorsAfter
-- binds: $1 authorIds, $2 afterPublishedAt, $3 afterId, $4 first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  (
    SELECT
      unnest(CAST($1 AS varchar[])) AS value
  ) a
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      posts x
    WHERE
      x.author_id = a.value
      AND x.published_at IS NOT NULL
      AND (x.published_at, x.id) < ($2, $3)
    ORDER BY
      x.published_at DESC,
      x.id DESC
    LIMIT
      $4
  ) t
  JOIN posts p ON p.id = t.id
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- postsSql.summaryPagesByAuthors
-- binds: $1 authorIds, $2 first
SELECT
  p.id,
  p.title,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  (
    SELECT
      unnest(CAST($1 AS varchar[])) AS value
  ) a
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      posts x
    WHERE
      x.author_id = a.value
      AND x.published_at IS NOT NULL
    ORDER BY
      x.published_at DESC,
      x.id DESC
    LIMIT
      $2
  ) t
  JOIN posts p ON p.id = t.id
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- postsSql.summaryPagesByAuthorsAfter
-- binds: $1 authorIds, $2 afterPublishedAt, $3 afterId, $4 first
SELECT
  p.id,
  p.title,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  (
    SELECT
      unnest(CAST($1 AS varchar[])) AS value
  ) a
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      posts x
    WHERE
      x.author_id = a.value
      AND x.published_at IS NOT NULL
      AND (x.published_at, x.id) < ($2, $3)
    ORDER BY
      x.published_at DESC,
      x.id DESC
    LIMIT
      $4
  ) t
  JOIN posts p ON p.id = t.id
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- postsSql.drafts
-- binds: $1 authorId, $2 first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.author_id = $1
  AND p.published_at IS NULL
ORDER BY
  p.id DESC
LIMIT
  $2;

-- postsSql.draftsAfter
-- binds: $1 authorId, $2 afterId, $3 first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.author_id = $1
  AND p.published_at IS NULL
  AND p.id < $2
ORDER BY
  p.id DESC
LIMIT
  $3;

-- postsSql.countPublished
SELECT
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.published_at IS NOT NULL;

-- postsSql.countPublishedBy
-- binds: $1 authorId
SELECT
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
  AND p.author_id = $1;

-- postsSql.countTagged
-- binds: $1 tags, $2 tagCount
SELECT
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
  AND p.id IN (
    SELECT
      pt.post_id
    FROM
      post_tags pt
    WHERE
      pt.slug = ANY ($1)
    GROUP BY
      pt.post_id
    HAVING
      COUNT(*) = $2
  );

-- postsSql.countTaggedByAuthor
-- binds: $1 authorId, $2 tags, $3 tagCount
SELECT
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
  AND p.author_id = $1
  AND p.id IN (
    SELECT
      pt.post_id
    FROM
      post_tags pt
    WHERE
      pt.slug = ANY ($2)
    GROUP BY
      pt.post_id
    HAVING
      COUNT(*) = $3
  );

-- postsSql.countPublishedByAuthors
-- binds: $1 authorIds
SELECT
  p.author_id AS key,
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.author_id = ANY ($1)
  AND p.published_at IS NOT NULL
GROUP BY
  p.author_id;

-- postsSql.insert
-- binds: $1 id, $2 title, $3 content, $4 authorId, $5 createdAt, $6 publishedAt
INSERT INTO
  posts (
    id,
    title,
    content,
    author_id,
    created_at,
    updated_at,
    published_at
  )
VALUES
  ($1, $2, $3, $4, $5, $5, $6);

-- postsSql.update
-- binds: $1 title, $2 content, $3 updatedAt, $4 id
UPDATE posts
SET
  title = COALESCE($1, title),
  content = COALESCE($2, content),
  updated_at = $3
WHERE
  id = $4
RETURNING
  title,
  content;

-- postsSql.foldSearchText
SELECT
  1
WHERE
  FALSE;

-- postsSql.publish
-- binds: $1 at, $2 id
UPDATE posts
SET
  published_at = $1,
  updated_at = $1
WHERE
  id = $2
  AND published_at IS NULL;

-- postsSql.delete
-- binds: $1 id
DELETE FROM posts
WHERE
  id = $1;
