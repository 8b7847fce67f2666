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
  u.id AS "author.id",
  u.name AS "author.name",
  u.email AS "author.email",
  u.handle AS "author.handle",
  u.avatar AS "author.avatar",
  u.avatar_image_id AS "author.avatarImageId",
  u.role AS "author.role",
  u.token_version AS "author.tokenVersion",
  u.email_verified AS "author.emailVerified",
  u.created_at AS "author.createdAt",
  u.updated_at AS "author.updatedAt",
  u.banned_at AS "author.bannedAt",
  u.banned_until AS "author.bannedUntil",
  u.ban_reason AS "author.banReason"
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
-- binds: $1 id, $2 title, $3 content, $4 authorId, $5 createdAt, $6 publishedAt, $7 slug, $8 scheduledAt, $9 excerpt, $10 customExcerpt, $11 contentHtml, $12 contentText, $13 toc, $14 wordCount, $15 coverUrl, $16 coverImageId, $17 coverAlt, $18 coverCaption, $19 seoTitle, $20 seoDescription, $21 seoCanonicalUrl
INSERT INTO
  posts (
    id,
    title,
    content,
    author_id,
    created_at,
    updated_at,
    published_at,
    slug,
    scheduled_at,
    excerpt,
    custom_excerpt,
    content_html,
    content_text,
    toc,
    word_count,
    cover_url,
    cover_image_id,
    cover_alt,
    cover_caption,
    seo_title,
    seo_description,
    seo_canonical_url
  )
VALUES
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $5,
    $6,
    $7,
    $8,
    $9,
    $10,
    $11,
    $12,
    $13,
    $14,
    $15,
    $16,
    $17,
    $18,
    $19,
    $20,
    $21
  );

-- postsSql.update
-- binds: $1 title, $2 content, $3 contentHtml, $4 contentText, $5 toc, $6 wordCount, $7 excerpt, $8 setExcerpt, $9 customExcerpt, $10 setCover, $11 coverUrl, $12 coverImageId, $13 coverAlt, $14 coverCaption, $15 setSeo, $16 seoTitle, $17 seoDescription, $18 seoCanonicalUrl, $19 updatedAt, $20 id
UPDATE posts
SET
  title = COALESCE($1, title),
  content = COALESCE($2, content),
  content_html = COALESCE($3, content_html),
  content_text = COALESCE($4, content_text),
  toc = COALESCE($5, toc),
  word_count = COALESCE($6, word_count),
  excerpt = COALESCE($7, excerpt),
  custom_excerpt = CASE
    WHEN $8 THEN $9
    ELSE custom_excerpt
  END,
  cover_url = CASE
    WHEN $10 THEN $11
    ELSE cover_url
  END,
  cover_image_id = CASE
    WHEN $10 THEN $12
    ELSE cover_image_id
  END,
  cover_alt = CASE
    WHEN $10 THEN $13
    ELSE cover_alt
  END,
  cover_caption = CASE
    WHEN $10 THEN $14
    ELSE cover_caption
  END,
  seo_title = CASE
    WHEN $15 THEN $16
    ELSE seo_title
  END,
  seo_description = CASE
    WHEN $15 THEN $17
    ELSE seo_description
  END,
  seo_canonical_url = CASE
    WHEN $15 THEN $18
    ELSE seo_canonical_url
  END,
  updated_at = $19
WHERE
  id = $20
RETURNING
  title,
  coalesce(content_text, content) AS content;

-- postsSql.bodies
-- binds: $1 ids
SELECT
  p.id,
  p.content_html AS "contentHtml",
  p.content_text AS "contentText",
  p.toc
FROM
  posts p
WHERE
  p.id = ANY ($1);

-- postsSql.slugsOf
-- binds: $1 ids
SELECT
  s.post_id AS "postId",
  s.slug
FROM
  post_slugs s
WHERE
  s.post_id = ANY ($1)
ORDER BY
  s.created_at DESC,
  s.slug;

-- postsSql.bySlug
-- binds: $1 slug
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
  post_slugs s
  JOIN posts p ON p.id = s.post_id
WHERE
  s.slug = $1;

-- postsSql.slugsTaken
-- binds: $1 slugs
SELECT
  s.slug,
  s.post_id AS "postId"
FROM
  post_slugs s
WHERE
  s.slug = ANY ($1);

-- postsSql.claimSlug
-- binds: $1 slug, $2 postId, $3 at
INSERT INTO
  post_slugs (slug, post_id, created_at)
VALUES
  ($1, $2, $3)
ON CONFLICT DO NOTHING;

-- postsSql.renewSlug
-- binds: $1 at, $2 slug, $3 postId
UPDATE post_slugs
SET
  created_at = $1
WHERE
  slug = $2
  AND post_id = $3;

-- postsSql.setSlug
-- binds: $1 slug, $2 id
UPDATE posts
SET
  slug = $1
WHERE
  id = $2;

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
  updated_at = $1,
  scheduled_at = NULL,
  review_state = NULL,
  review_requested_at = NULL,
  rejection_reason = NULL
WHERE
  id = $2
  AND published_at IS NULL;

-- postsSql.delete
-- binds: $1 id
DELETE FROM posts
WHERE
  id = $1;

-- postsSql.hideByModeration
-- binds: $1 now, $2 id
UPDATE posts
SET
  hidden_at = $1,
  hidden_published_at = published_at,
  published_at = NULL,
  scheduled_at = NULL,
  updated_at = $1
WHERE
  id = $2
  AND hidden_at IS NULL
  AND published_at IS NOT NULL;

-- postsSql.restoreFromModeration
-- binds: $1 now, $2 id
UPDATE posts
SET
  published_at = hidden_published_at,
  hidden_at = NULL,
  hidden_published_at = NULL,
  updated_at = $1
WHERE
  id = $2
  AND hidden_at IS NOT NULL;

-- postsSql.lockComments
-- binds: $1 at, $2 id
UPDATE posts
SET
  comments_locked_at = $1
WHERE
  id = $2;

-- postsSql.schedule
-- binds: $1 at, $2 now, $3 id
UPDATE posts
SET
  scheduled_at = $1,
  updated_at = $2,
  review_state = NULL,
  review_requested_at = NULL,
  rejection_reason = NULL
WHERE
  id = $3
  AND published_at IS NULL;

-- postsSql.unschedule
-- binds: $1 now, $2 id
UPDATE posts
SET
  scheduled_at = NULL,
  updated_at = $1
WHERE
  id = $2
  AND scheduled_at IS NOT NULL;

-- postsSql.unpublish
-- binds: $1 now, $2 id
UPDATE posts
SET
  published_at = NULL,
  scheduled_at = NULL,
  updated_at = $1
WHERE
  id = $2
  AND published_at IS NOT NULL;

-- postsSql.due
-- binds: $1 now, $2 first
SELECT
  p.id,
  p.author_id AS "authorId"
FROM
  posts p
WHERE
  p.scheduled_at IS NOT NULL
  AND p.scheduled_at <= $1
ORDER BY
  p.scheduled_at,
  p.id
LIMIT
  $2;

-- postsSql.claimDue
-- binds: $1 id, $2 now
SELECT
  p.id
FROM
  posts p
WHERE
  p.id = $1
  AND p.published_at IS NULL
  AND p.scheduled_at IS NOT NULL
  AND p.scheduled_at <= $2
FOR UPDATE
  SKIP LOCKED;

-- postsSql.publishScheduled
-- binds: $1 now, $2 id
UPDATE posts
SET
  published_at = scheduled_at,
  scheduled_at = NULL,
  updated_at = $1
WHERE
  id = $2
  AND published_at IS NULL
  AND scheduled_at IS NOT NULL;

-- postsSql.scheduled
-- binds: $1 authorId, $2 first
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
  p.author_id = $1
  AND p.published_at IS NULL
  AND p.scheduled_at IS NOT NULL
ORDER BY
  p.scheduled_at,
  p.id
LIMIT
  $2;

-- postsSql.scheduledAfter
-- binds: $1 authorId, $2 afterScheduledAt, $3 afterId, $4 first
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
  p.author_id = $1
  AND p.published_at IS NULL
  AND p.scheduled_at IS NOT NULL
  AND (p.scheduled_at, p.id) > ($2, $3)
ORDER BY
  p.scheduled_at,
  p.id
LIMIT
  $4;

-- postsSql.countScheduled
-- binds: $1 authorId
SELECT
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.author_id = $1
  AND p.published_at IS NULL
  AND p.scheduled_at IS NOT NULL;

-- postsSql.submitForReview
-- binds: $1 now, $2 id
UPDATE posts
SET
  review_state = 'AWAITING_REVIEW',
  review_requested_at = $1,
  rejection_reason = NULL,
  updated_at = $1
WHERE
  id = $2
  AND published_at IS NULL
  AND scheduled_at IS NULL
  AND (
    review_state IS NULL
    OR review_state <> 'AWAITING_REVIEW'
  );

-- postsSql.reject
-- binds: $1 reason, $2 now, $3 id
UPDATE posts
SET
  review_state = 'REJECTED',
  review_requested_at = NULL,
  rejection_reason = $1,
  updated_at = $2
WHERE
  id = $3
  AND published_at IS NULL
  AND review_state = 'AWAITING_REVIEW';

-- postsSql.awaitingReview
-- binds: $1 first
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
  p.review_state = 'AWAITING_REVIEW'
ORDER BY
  p.review_requested_at,
  p.id
LIMIT
  $1;

-- postsSql.awaitingReviewAfter
-- binds: $1 afterRequestedAt, $2 afterId, $3 first
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
  p.review_state = 'AWAITING_REVIEW'
  AND (p.review_requested_at, p.id) > ($1, $2)
ORDER BY
  p.review_requested_at,
  p.id
LIMIT
  $3;

-- postsSql.countAwaitingReview
SELECT
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.review_state = 'AWAITING_REVIEW';
