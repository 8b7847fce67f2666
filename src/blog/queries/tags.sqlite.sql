-- Generated from src/blog/tags/tags.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- tagsSql.tagsOfPosts
-- binds: postIds
SELECT
  pt.post_id AS "postId",
  pt.slug AS slug
FROM
  post_tags pt
WHERE
  pt.post_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
ORDER BY
  pt.post_id,
  pt.position;

-- tagsSql.countPublishedByTags
-- binds: slugs
SELECT
  tc.slug AS key,
  tc.count AS count
FROM
  tag_counts tc
WHERE
  tc.slug IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- tagsSql.pagesByTags
-- binds: slugs, first
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
      value
    FROM
      json_each(+ ?)
  ) a
  JOIN posts p ON p.id IN (
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
      + ?
  )
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- tagsSql.pagesByTagsAfter
-- binds: slugs, afterPublishedAt, afterId, first
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
      value
    FROM
      json_each(+ ?)
  ) a
  JOIN posts p ON p.id IN (
    SELECT
      x.id
    FROM
      post_tags t
      JOIN posts x ON x.id = t.post_id
    WHERE
      t.slug = a.value
      AND x.published_at IS NOT NULL
      AND (x.published_at, x.id) < (+ ?, + ?)
    ORDER BY
      x.published_at DESC,
      x.id DESC
    LIMIT
      + ?
  )
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- tagsSql.popular
-- binds: first
SELECT
  tc.slug AS slug,
  tc.count AS count
FROM
  tag_counts tc
ORDER BY
  tc.count DESC,
  tc.slug ASC
LIMIT
  + ?;

-- tagsSql.popularAfter
-- binds: afterCount, afterSlug, first, afterCount, first, first
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
      tc.count = + ?
      AND tc.slug > + ?
    ORDER BY
      tc.count DESC,
      tc.slug ASC
    LIMIT
      + ?
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
      tc.count < + ?
    ORDER BY
      tc.count DESC,
      tc.slug ASC
    LIMIT
      + ?
  ) fewer
ORDER BY
  count DESC,
  slug ASC
LIMIT
  + ?;

-- tagsSql.removeFromPost
-- binds: postId
DELETE FROM post_tags
WHERE
  post_id = + ?;

-- tagsSql.add
-- binds: postId, slug, position
INSERT INTO
  post_tags (post_id, slug, position)
VALUES
  (+ ?, + ?, + ?);
