-- Generated from src/blog/tags/tags.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- tagsSql.tagsOfPosts
-- binds: $1 postIds
SELECT
  pt.post_id AS "postId",
  pt.slug AS slug
FROM
  post_tags pt
WHERE
  pt.post_id = ANY ($1)
ORDER BY
  pt.post_id,
  pt.position;

-- tagsSql.countPublishedByTags
-- binds: $1 slugs
SELECT
  tc.slug AS key,
  tc.count AS count
FROM
  tag_counts tc
WHERE
  tc.slug = ANY ($1);

-- tagsSql.pagesByTags
-- binds: $1 slugs, $2 first
SELECT
  a.value AS "tag",
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
  p.cover_image_id AS "coverImageId",
  p.cover_alt AS "coverAlt",
  p.cover_caption AS "coverCaption",
  p.seo_title AS "seoTitle",
  p.seo_description AS "seoDescription",
  p.seo_canonical_url AS "seoCanonicalUrl",
  p.review_state AS "reviewState",
  p.review_requested_at AS "reviewRequestedAt",
  p.rejection_reason AS "rejectionReason",
  p.comments_locked_at AS "commentsLockedAt",
  p.hidden_at AS "hiddenAt"
FROM
  (
    SELECT
      unnest(CAST($1 AS varchar[])) AS value
  ) a
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      post_tags t
      JOIN posts x ON x.id = t.post_id
    WHERE
      t.slug = a.value
      AND x.published_at IS NOT NULL
    ORDER BY
      x.published_at DESC,
      x.id DESC
    LIMIT
      $2
  ) page
  JOIN posts p ON p.id = page.id
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- tagsSql.pagesByTagsAfter
-- binds: $1 slugs, $2 afterPublishedAt, $3 afterId, $4 first
SELECT
  a.value AS "tag",
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
  p.cover_image_id AS "coverImageId",
  p.cover_alt AS "coverAlt",
  p.cover_caption AS "coverCaption",
  p.seo_title AS "seoTitle",
  p.seo_description AS "seoDescription",
  p.seo_canonical_url AS "seoCanonicalUrl",
  p.review_state AS "reviewState",
  p.review_requested_at AS "reviewRequestedAt",
  p.rejection_reason AS "rejectionReason",
  p.comments_locked_at AS "commentsLockedAt",
  p.hidden_at AS "hiddenAt"
FROM
  (
    SELECT
      unnest(CAST($1 AS varchar[])) AS value
  ) a
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      post_tags t
      JOIN posts x ON x.id = t.post_id
    WHERE
      t.slug = a.value
      AND x.published_at IS NOT NULL
      AND (x.published_at, x.id) < ($2, $3)
    ORDER BY
      x.published_at DESC,
      x.id DESC
    LIMIT
      $4
  ) page
  JOIN posts p ON p.id = page.id
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- tagsSql.popular
-- binds: $1 first
SELECT
  tc.slug AS slug,
  tc.count AS count
FROM
  tag_counts tc
ORDER BY
  tc.count DESC,
  tc.slug ASC
LIMIT
  $1;

-- tagsSql.popularAfter
-- binds: $1 afterCount, $2 afterSlug, $3 first
SELECT
  slug,
  count
FROM
  (
    SELECT
      tc.slug AS slug,
      tc.count AS count
    FROM
      tag_counts tc
    WHERE
      tc.count = $1
      AND tc.slug > $2
    ORDER BY
      tc.count DESC,
      tc.slug ASC
    LIMIT
      $3
  ) tied
UNION ALL
SELECT
  slug,
  count
FROM
  (
    SELECT
      tc.slug AS slug,
      tc.count AS count
    FROM
      tag_counts tc
    WHERE
      tc.count < $1
    ORDER BY
      tc.count DESC,
      tc.slug ASC
    LIMIT
      $3
  ) fewer
ORDER BY
  count DESC,
  slug ASC
LIMIT
  $3;

-- tagsSql.removeFromPost
-- binds: $1 postId
DELETE FROM post_tags
WHERE
  post_id = $1;

-- tagsSql.add
-- binds: $1 postId, $2 slug, $3 position
INSERT INTO
  post_tags (post_id, slug, position)
VALUES
  ($1, $2, $3);
