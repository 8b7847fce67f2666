-- Generated from src/blog/bookmarks/bookmarks.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- bookmarksSql.bookmark
-- binds: $1 userId, $2 postId, $3 createdAt
INSERT INTO
  bookmarks (user_id, post_id, created_at)
VALUES
  ($1, $2, $3)
ON CONFLICT DO NOTHING;

-- bookmarksSql.unbookmark
-- binds: $1 userId, $2 postId
DELETE FROM bookmarks
WHERE
  user_id = $1
  AND post_id = $2;

-- bookmarksSql.bookmarkedBy
-- binds: $1 userId, $2 postIds
SELECT
  b.post_id AS key
FROM
  bookmarks b
WHERE
  b.user_id = $1
  AND b.post_id = ANY ($2);

-- bookmarksSql.page
-- binds: $1 userId, $2 first
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
  b.user_id = $1
  AND p.published_at IS NOT NULL
ORDER BY
  b.created_at DESC,
  b.post_id DESC
LIMIT
  $2;

-- bookmarksSql.pageAfter
-- binds: $1 userId, $2 afterCreatedAt, $3 afterPostId, $4 first
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
  b.user_id = $1
  AND p.published_at IS NOT NULL
  AND (b.created_at, b.post_id) < ($2, $3)
ORDER BY
  b.created_at DESC,
  b.post_id DESC
LIMIT
  $4;

-- bookmarksSql.count
-- binds: $1 userId
SELECT
  COUNT(*) AS count
FROM
  bookmarks b
  JOIN posts p ON p.id = b.post_id
WHERE
  b.user_id = $1
  AND p.published_at IS NOT NULL;
