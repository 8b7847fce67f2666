-- Generated from src/blog/comments/comments.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- commentsSql.byId
-- binds: id
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
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
  c.text_html AS "textHtml",
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
  c.text_html AS "textHtml",
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
  c.text_html AS "textHtml",
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

-- commentsSql.postWithAuthorAndPage
-- binds: id, id, first
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt",
  p.slug,
  p.scheduled_at AS "scheduledAt",
  p.excerpt,
  p.custom_excerpt AS "customExcerpt",
  p.word_count AS "wordCount",
  p.cover_url AS "coverUrl",
  p.cover_alt AS "coverAlt",
  p.cover_caption AS "coverCaption",
  p.seo_title AS "seoTitle",
  p.seo_description AS "seoDescription",
  p.seo_canonical_url AS "seoCanonicalUrl",
  u.id AS "author.id",
  u.name AS "author.name",
  u.email AS "author.email",
  u.handle AS "author.handle",
  u.avatar AS "author.avatar",
  u.role AS "author.role",
  u.token_version AS "author.tokenVersion",
  u.created_at AS "author.createdAt",
  u.updated_at AS "author.updatedAt",
  NULL AS "comment.id",
  NULL AS "comment.text",
  NULL AS "comment.textHtml",
  NULL AS "comment.postId",
  NULL AS "comment.authorId",
  NULL AS "comment.createdAt"
FROM
  posts p
  JOIN users u ON u.id = p.author_id
WHERE
  p.id = + ?
UNION ALL
SELECT
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  c.id AS "comment.id",
  c.text AS "comment.text",
  c.text_html AS "comment.textHtml",
  c.post_id AS "comment.postId",
  c.author_id AS "comment.authorId",
  c.created_at AS "comment.createdAt"
FROM
  comments c
WHERE
  c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = + ?
    ORDER BY
      x.id
    LIMIT
      + ?
  )
ORDER BY
  "comment.id" NULLS FIRST;

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
-- binds: id, text, textHtml, postId, authorId, createdAt
INSERT INTO
  comments (
    id,
    text,
    text_html,
    post_id,
    author_id,
    created_at
  )
VALUES
  (+ ?, + ?, + ?, + ?, + ?, + ?);

-- commentsSql.delete
-- binds: id
DELETE FROM comments
WHERE
  id = + ?;
