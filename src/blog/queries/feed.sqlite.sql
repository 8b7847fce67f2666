-- Generated from src/blog/feed/feed.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- feedSql.page
-- binds: viewerId, viewerId, first
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
  posts p
WHERE
  p.id IN (
    SELECT
      x.id
    FROM
      (
        SELECT
          CAST(+ ? AS varchar(36)) AS value
        UNION
        SELECT
          f.followee_id
        FROM
          follows f
        WHERE
          f.follower_id = + ?
      ) a
      JOIN posts x ON x.author_id = a.value
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

-- feedSql.pageAfter
-- binds: viewerId, viewerId, afterPublishedAt, afterId, first
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
  posts p
WHERE
  p.id IN (
    SELECT
      x.id
    FROM
      (
        SELECT
          CAST(+ ? AS varchar(36)) AS value
        UNION
        SELECT
          f.followee_id
        FROM
          follows f
        WHERE
          f.follower_id = + ?
      ) a
      JOIN posts x ON x.author_id = a.value
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
