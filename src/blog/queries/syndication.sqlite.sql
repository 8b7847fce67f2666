-- Generated from src/blog/syndication/syndication.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- syndicationSql.newest
-- binds: first
SELECT
  p.id,
  p.title,
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
  p.hidden_at AS "hiddenAt",
  u.name AS "authorName",
  u.handle AS "authorHandle",
  u.updated_at AS "authorUpdatedAt"
FROM
  posts p
  JOIN users u ON u.id = p.author_id
WHERE
  p.id IN (
    SELECT
      x.id
    FROM
      posts x
    WHERE
      x.published_at IS NOT NULL
    ORDER BY
      x.published_at DESC,
      x.id DESC
    LIMIT
      + ?
  )
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- syndicationSql.newestByAuthor
-- binds: authorId, first
SELECT
  p.id,
  p.title,
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
  p.hidden_at AS "hiddenAt",
  u.name AS "authorName",
  u.handle AS "authorHandle",
  u.updated_at AS "authorUpdatedAt"
FROM
  posts p
  JOIN users u ON u.id = p.author_id
WHERE
  p.id IN (
    SELECT
      x.id
    FROM
      posts x
    WHERE
      x.published_at IS NOT NULL
      AND x.author_id = + ?
    ORDER BY
      x.published_at DESC,
      x.id DESC
    LIMIT
      + ?
  )
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- syndicationSql.newestTaggedByWalk
-- binds: slug, first
SELECT
  p.id,
  p.title,
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
  p.hidden_at AS "hiddenAt",
  u.name AS "authorName",
  u.handle AS "authorHandle",
  u.updated_at AS "authorUpdatedAt"
FROM
  posts p
  JOIN users u ON u.id = p.author_id
WHERE
  p.id IN (
    SELECT
      x.id
    FROM
      posts x
    WHERE
      x.published_at IS NOT NULL
      AND (
        SELECT
          1
        FROM
          post_tags t
        WHERE
          t.post_id = x.id
          AND t.slug = + ?
      ) IS NOT NULL
    ORDER BY
      x.published_at DESC,
      x.id DESC
    LIMIT
      + ?
  )
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- syndicationSql.newestTaggedBySort
-- binds: slug, first
SELECT
  p.id,
  p.title,
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
  p.hidden_at AS "hiddenAt",
  u.name AS "authorName",
  u.handle AS "authorHandle",
  u.updated_at AS "authorUpdatedAt"
FROM
  posts p
  JOIN users u ON u.id = p.author_id
WHERE
  p.id IN (
    SELECT
      x.id
    FROM
      post_tags t
      CROSS JOIN posts x ON x.id = t.post_id
    WHERE
      t.slug = + ?
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

-- syndicationSql.authorByHandle
-- binds: handle
SELECT
  u.id,
  u.name,
  u.handle
FROM
  users u
WHERE
  u.handle = + ?;

-- syndicationSql.tagCount
-- binds: slug
SELECT
  tc.count AS count
FROM
  tag_counts tc
WHERE
  tc.slug = + ?;

-- syndicationSql.tagsOfPosts
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

-- syndicationSql.months
-- binds: most
WITH RECURSIVE
  months (at) AS (
    SELECT
      (
        SELECT
          x.published_at
        FROM
          posts x
        WHERE
          x.published_at IS NOT NULL
        ORDER BY
          x.published_at
        LIMIT
          1
      )
    UNION ALL
    SELECT
      (
        SELECT
          x.published_at
        FROM
          posts x
        WHERE
          x.published_at >= date(m.at, 'start of month', '+1 month')
        ORDER BY
          x.published_at
        LIMIT
          1
      )
    FROM
      months m
    WHERE
      m.at IS NOT NULL
  )
SELECT
  m.at AS "firstPublishedAt"
FROM
  months m
WHERE
  m.at IS NOT NULL
LIMIT
  + ?;

-- syndicationSql.publishedBetween
-- binds: from, until, first
SELECT
  p.id,
  p.slug,
  p.published_at AS "publishedAt",
  p.updated_at AS "updatedAt"
FROM
  posts p
WHERE
  p.published_at >= + ?
  AND p.published_at < + ?
ORDER BY
  p.published_at,
  p.id
LIMIT
  + ?;
