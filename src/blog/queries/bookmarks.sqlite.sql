-- Generated from src/blog/bookmarks/bookmarks.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- bookmarksSql.bookmark
-- binds: userId, postId, createdAt
INSERT INTO
  bookmarks (user_id, post_id, created_at)
VALUES
  (+ ?, + ?, + ?)
ON CONFLICT DO NOTHING;

-- bookmarksSql.unbookmark
-- binds: userId, postId
DELETE FROM bookmarks
WHERE
  user_id = + ?
  AND post_id = + ?;

-- bookmarksSql.bookmarkedBy
-- binds: userId, postIds
SELECT
  b.post_id AS key
FROM
  bookmarks b
WHERE
  b.user_id = + ?
  AND b.post_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- bookmarksSql.page
-- binds: userId, first
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
  p.hidden_at AS "hiddenAt",
  b.created_at AS "bookmarkedAt"
FROM
  bookmarks b
  JOIN posts p ON p.id = b.post_id
WHERE
  b.user_id = + ?
  AND p.published_at IS NOT NULL
ORDER BY
  b.created_at DESC,
  b.post_id DESC
LIMIT
  + ?;

-- bookmarksSql.pageAfter
-- binds: userId, afterCreatedAt, afterPostId, first
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
  p.hidden_at AS "hiddenAt",
  b.created_at AS "bookmarkedAt"
FROM
  bookmarks b
  JOIN posts p ON p.id = b.post_id
WHERE
  b.user_id = + ?
  AND p.published_at IS NOT NULL
  AND (b.created_at, b.post_id) < (+ ?, + ?)
ORDER BY
  b.created_at DESC,
  b.post_id DESC
LIMIT
  + ?;

-- bookmarksSql.count
-- binds: userId
SELECT
  COUNT(*) AS count
FROM
  bookmarks b
  JOIN posts p ON p.id = b.post_id
WHERE
  b.user_id = + ?
  AND p.published_at IS NOT NULL;
