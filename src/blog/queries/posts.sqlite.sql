-- Generated from src/blog/posts/posts.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- postSearchIndexSql.unindexed
-- binds: batch
SELECT
  count(*) AS count,
  min(doc) AS first,
  max(doc) AS last
FROM
  (
    SELECT
      doc
    FROM
      post_search
    WHERE
      indexed = 0
    ORDER BY
      doc
    LIMIT
      + ?
  );

-- postSearchIndexSql.index
-- binds: first, last
INSERT INTO
  post_search_fts (rowid, title, content)
SELECT
  t.doc,
  t.title,
  t.content
FROM
  post_search s
  JOIN post_search_text t ON t.doc = s.doc
WHERE
  s.indexed = 0
  AND s.doc BETWEEN + ? AND + ?
ORDER BY
  s.doc;

-- postSearchIndexSql.markIndexed
-- binds: first, last
UPDATE post_search
SET
  indexed = 1
WHERE
  indexed = 0
  AND doc BETWEEN + ? AND + ?;

-- postsSql.byId
-- binds: id
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
  p.id = + ?;

-- postsSql.byIdWithAuthor
-- binds: id
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
  p.id = + ?;

-- postsSql.byIds
-- binds: ids
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
      value
    FROM
      json_each(+ ?)
  );

-- postsSql.publishedAtOf
-- binds: id
SELECT
  p.published_at AS "publishedAt"
FROM
  posts p
WHERE
  p.id = + ?;

-- postsSql.published
-- binds: first
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
  + ?;

-- postsSql.publishedAfter
-- binds: afterPublishedAt, afterId, first
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
  AND (p.published_at, p.id) < (+ ?, + ?)
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  + ?;

-- postsSql.byAuthor
-- binds: authorId, first
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
  AND p.author_id = + ?
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  + ?;

-- postsSql.byAuthorAfter
-- binds: authorId, afterPublishedAt, afterId, first
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
  AND p.author_id = + ?
  AND (p.published_at, p.id) < (+ ?, + ?)
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  + ?;

-- postsSql.tagged
-- binds: tags, tagCount, first
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
      pt.slug IN (
        SELECT
          value
        FROM
          json_each(+ ?)
      )
    GROUP BY
      pt.post_id
    HAVING
      COUNT(*) = + ?
  )
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  + ?;

-- postsSql.taggedAfter
-- binds: tags, tagCount, afterPublishedAt, afterId, first
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
      pt.slug IN (
        SELECT
          value
        FROM
          json_each(+ ?)
      )
    GROUP BY
      pt.post_id
    HAVING
      COUNT(*) = + ?
  )
  AND (p.published_at, p.id) < (+ ?, + ?)
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  + ?;

-- postsSql.taggedByAuthor
-- binds: authorId, tags, tagCount, first
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
  AND p.author_id = + ?
  AND p.id IN (
    SELECT
      pt.post_id
    FROM
      post_tags pt
    WHERE
      pt.slug IN (
        SELECT
          value
        FROM
          json_each(+ ?)
      )
    GROUP BY
      pt.post_id
    HAVING
      COUNT(*) = + ?
  )
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  + ?;

-- postsSql.taggedByAuthorAfter
-- binds: authorId, tags, tagCount, afterPublishedAt, afterId, first
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
  AND p.author_id = + ?
  AND p.id IN (
    SELECT
      pt.post_id
    FROM
      post_tags pt
    WHERE
      pt.slug IN (
        SELECT
          value
        FROM
          json_each(+ ?)
      )
    GROUP BY
      pt.post_id
    HAVING
      COUNT(*) = + ?
  )
  AND (p.published_at, p.id) < (+ ?, + ?)
ORDER BY
  p.published_at DESC,
  p.id DESC
LIMIT
  + ?;

-- postsSql.pagesByAuthors
-- binds: authorIds, first
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
      value
    FROM
      json_each(+ ?)
  ) a
  JOIN posts p ON p.id IN (
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
      + ?
  )
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- postsSql.pagesByAuthorsAfter
-- binds: authorIds, afterPublishedAt, afterId, first
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
      value
    FROM
      json_each(+ ?)
  ) a
  JOIN posts p ON p.id IN (
    SELECT
      x.id
    FROM
      posts x
    WHERE
      x.author_id = a.value
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

-- postsSql.summaryPagesByAuthors
-- binds: authorIds, first
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
      value
    FROM
      json_each(+ ?)
  ) a
  JOIN posts p ON p.id IN (
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
      + ?
  )
ORDER BY
  p.published_at DESC,
  p.id DESC;

-- postsSql.summaryPagesByAuthorsAfter
-- binds: authorIds, afterPublishedAt, afterId, first
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
      value
    FROM
      json_each(+ ?)
  ) a
  JOIN posts p ON p.id IN (
    SELECT
      x.id
    FROM
      posts x
    WHERE
      x.author_id = a.value
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

-- postsSql.drafts
-- binds: authorId, first
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
  p.author_id = + ?
  AND p.published_at IS NULL
ORDER BY
  p.id DESC
LIMIT
  + ?;

-- postsSql.draftsAfter
-- binds: authorId, afterId, first
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
  p.author_id = + ?
  AND p.published_at IS NULL
  AND p.id < + ?
ORDER BY
  p.id DESC
LIMIT
  + ?;

-- postsSql.countPublished
SELECT
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.published_at IS NOT NULL;

-- postsSql.countPublishedBy
-- binds: authorId
SELECT
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
  AND p.author_id = + ?;

-- postsSql.countTagged
-- binds: tags, tagCount
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
      pt.slug IN (
        SELECT
          value
        FROM
          json_each(+ ?)
      )
    GROUP BY
      pt.post_id
    HAVING
      COUNT(*) = + ?
  );

-- postsSql.countTaggedByAuthor
-- binds: authorId, tags, tagCount
SELECT
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.published_at IS NOT NULL
  AND p.author_id = + ?
  AND p.id IN (
    SELECT
      pt.post_id
    FROM
      post_tags pt
    WHERE
      pt.slug IN (
        SELECT
          value
        FROM
          json_each(+ ?)
      )
    GROUP BY
      pt.post_id
    HAVING
      COUNT(*) = + ?
  );

-- postsSql.countPublishedByAuthors
-- binds: authorIds
SELECT
  p.author_id AS key,
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.author_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
  AND p.published_at IS NOT NULL
GROUP BY
  p.author_id;

-- postsSql.insert
-- binds: id, title, content, authorId, createdAt, createdAt, publishedAt, slug, scheduledAt, excerpt, customExcerpt, contentHtml, contentText, toc, wordCount, coverUrl, coverImageId, coverAlt, coverCaption, seoTitle, seoDescription, seoCanonicalUrl
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
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?,
    + ?
  );

-- postsSql.update
-- binds: title, content, contentHtml, contentText, toc, wordCount, excerpt, setExcerpt, customExcerpt, setCover, coverUrl, setCover, coverImageId, setCover, coverAlt, setCover, coverCaption, setSeo, seoTitle, setSeo, seoDescription, setSeo, seoCanonicalUrl, updatedAt, id
UPDATE posts
SET
  title = COALESCE(+ ?, title),
  content = COALESCE(+ ?, content),
  content_html = COALESCE(+ ?, content_html),
  content_text = COALESCE(+ ?, content_text),
  toc = COALESCE(+ ?, toc),
  word_count = COALESCE(+ ?, word_count),
  excerpt = COALESCE(+ ?, excerpt),
  custom_excerpt = CASE
    WHEN + ? THEN + ?
    ELSE custom_excerpt
  END,
  cover_url = CASE
    WHEN + ? THEN + ?
    ELSE cover_url
  END,
  cover_image_id = CASE
    WHEN + ? THEN + ?
    ELSE cover_image_id
  END,
  cover_alt = CASE
    WHEN + ? THEN + ?
    ELSE cover_alt
  END,
  cover_caption = CASE
    WHEN + ? THEN + ?
    ELSE cover_caption
  END,
  seo_title = CASE
    WHEN + ? THEN + ?
    ELSE seo_title
  END,
  seo_description = CASE
    WHEN + ? THEN + ?
    ELSE seo_description
  END,
  seo_canonical_url = CASE
    WHEN + ? THEN + ?
    ELSE seo_canonical_url
  END,
  updated_at = + ?
WHERE
  id = + ?
RETURNING
  title,
  coalesce(content_text, content) AS content;

-- postsSql.bodies
-- binds: ids
SELECT
  p.id,
  p.content_html AS "contentHtml",
  p.content_text AS "contentText",
  p.toc
FROM
  posts p
WHERE
  p.id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- postsSql.slugsOf
-- binds: ids
SELECT
  s.post_id AS "postId",
  s.slug
FROM
  post_slugs s
WHERE
  s.post_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
ORDER BY
  s.created_at DESC,
  s.slug;

-- postsSql.bySlug
-- binds: slug
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
  s.slug = + ?;

-- postsSql.slugsTaken
-- binds: slugs
SELECT
  s.slug,
  s.post_id AS "postId"
FROM
  post_slugs s
WHERE
  s.slug IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- postsSql.claimSlug
-- binds: slug, postId, at
INSERT INTO
  post_slugs (slug, post_id, created_at)
VALUES
  (+ ?, + ?, + ?)
ON CONFLICT DO NOTHING;

-- postsSql.renewSlug
-- binds: at, slug, postId
UPDATE post_slugs
SET
  created_at = + ?
WHERE
  slug = + ?
  AND post_id = + ?;

-- postsSql.setSlug
-- binds: slug, id
UPDATE posts
SET
  slug = + ?
WHERE
  id = + ?;

-- postsSql.foldSearchText
-- binds: titleFolded, contentFolded, id
UPDATE post_search
SET
  title_folded = + ?,
  content_folded = + ?
WHERE
  post_id = + ?;

-- postsSql.publish
-- binds: at, at, id
UPDATE posts
SET
  published_at = + ?,
  updated_at = + ?,
  scheduled_at = NULL,
  review_state = NULL,
  review_requested_at = NULL,
  rejection_reason = NULL
WHERE
  id = + ?
  AND published_at IS NULL;

-- postsSql.delete
-- binds: id
DELETE FROM posts
WHERE
  id = + ?;

-- postsSql.hideByModeration
-- binds: now, now, id
UPDATE posts
SET
  hidden_at = + ?,
  hidden_published_at = published_at,
  published_at = NULL,
  scheduled_at = NULL,
  updated_at = + ?
WHERE
  id = + ?
  AND hidden_at IS NULL
  AND published_at IS NOT NULL;

-- postsSql.restoreFromModeration
-- binds: now, id
UPDATE posts
SET
  published_at = hidden_published_at,
  hidden_at = NULL,
  hidden_published_at = NULL,
  updated_at = + ?
WHERE
  id = + ?
  AND hidden_at IS NOT NULL;

-- postsSql.lockComments
-- binds: at, id
UPDATE posts
SET
  comments_locked_at = + ?
WHERE
  id = + ?;

-- postsSql.schedule
-- binds: at, now, id
UPDATE posts
SET
  scheduled_at = + ?,
  updated_at = + ?,
  review_state = NULL,
  review_requested_at = NULL,
  rejection_reason = NULL
WHERE
  id = + ?
  AND published_at IS NULL;

-- postsSql.unschedule
-- binds: now, id
UPDATE posts
SET
  scheduled_at = NULL,
  updated_at = + ?
WHERE
  id = + ?
  AND scheduled_at IS NOT NULL;

-- postsSql.unpublish
-- binds: now, id
UPDATE posts
SET
  published_at = NULL,
  scheduled_at = NULL,
  updated_at = + ?
WHERE
  id = + ?
  AND published_at IS NOT NULL;

-- postsSql.due
-- binds: now, first
SELECT
  p.id,
  p.author_id AS "authorId"
FROM
  posts p
WHERE
  p.scheduled_at IS NOT NULL
  AND p.scheduled_at <= + ?
ORDER BY
  p.scheduled_at,
  p.id
LIMIT
  + ?;

-- postsSql.claimDue
-- binds: id, now
SELECT
  p.id
FROM
  posts p
WHERE
  p.id = + ?
  AND p.published_at IS NULL
  AND p.scheduled_at IS NOT NULL
  AND p.scheduled_at <= + ?;

-- postsSql.publishScheduled
-- binds: now, id
UPDATE posts
SET
  published_at = scheduled_at,
  scheduled_at = NULL,
  updated_at = + ?
WHERE
  id = + ?
  AND published_at IS NULL
  AND scheduled_at IS NOT NULL;

-- postsSql.scheduled
-- binds: authorId, first
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
  p.author_id = + ?
  AND p.published_at IS NULL
  AND p.scheduled_at IS NOT NULL
ORDER BY
  p.scheduled_at,
  p.id
LIMIT
  + ?;

-- postsSql.scheduledAfter
-- binds: authorId, afterScheduledAt, afterId, first
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
  p.author_id = + ?
  AND p.published_at IS NULL
  AND p.scheduled_at IS NOT NULL
  AND (p.scheduled_at, p.id) > (+ ?, + ?)
ORDER BY
  p.scheduled_at,
  p.id
LIMIT
  + ?;

-- postsSql.countScheduled
-- binds: authorId
SELECT
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.author_id = + ?
  AND p.published_at IS NULL
  AND p.scheduled_at IS NOT NULL;

-- postsSql.submitForReview
-- binds: now, now, id
UPDATE posts
SET
  review_state = 'AWAITING_REVIEW',
  review_requested_at = + ?,
  rejection_reason = NULL,
  updated_at = + ?
WHERE
  id = + ?
  AND published_at IS NULL
  AND scheduled_at IS NULL
  AND (
    review_state IS NULL
    OR review_state <> 'AWAITING_REVIEW'
  );

-- postsSql.reject
-- binds: reason, now, id
UPDATE posts
SET
  review_state = 'REJECTED',
  review_requested_at = NULL,
  rejection_reason = + ?,
  updated_at = + ?
WHERE
  id = + ?
  AND published_at IS NULL
  AND review_state = 'AWAITING_REVIEW';

-- postsSql.awaitingReview
-- binds: first
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
  + ?;

-- postsSql.awaitingReviewAfter
-- binds: afterRequestedAt, afterId, first
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
  AND (p.review_requested_at, p.id) > (+ ?, + ?)
ORDER BY
  p.review_requested_at,
  p.id
LIMIT
  + ?;

-- postsSql.countAwaitingReview
SELECT
  COUNT(*) AS count
FROM
  posts p
WHERE
  p.review_state = 'AWAITING_REVIEW';
