-- Generated from src/blog/search/search.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- searchSql.page
-- binds: match, rankWindow, first
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
  substr(coalesce(p.content_text, p.content), 1, 5000) AS "searchedText",
  g.rank
FROM
  (
    SELECT
      m.post_id,
      m.published_at,
      m.rank
    FROM
      (
        SELECT
          s.post_id,
          s.published_at,
          5 * (
            length(highlight (post_search_fts, 0, char(1), '')) - length(post_search_fts.title)
          ) + (
            length(highlight (post_search_fts, 1, char(1), '')) - length(post_search_fts.content)
          ) AS rank
        FROM
          post_search_fts
          JOIN post_search s ON s.doc = post_search_fts.rowid
        WHERE
          post_search_fts MATCH + ?
          AND s.published_at IS NOT NULL
        ORDER BY
          post_search_fts.rowid DESC
        LIMIT
          + ?
      ) m
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      + ?
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageAfter
-- binds: match, rankWindow, afterRank, afterRank, afterPublishedAt, afterId, first
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
  substr(coalesce(p.content_text, p.content), 1, 5000) AS "searchedText",
  g.rank
FROM
  (
    SELECT
      m.post_id,
      m.published_at,
      m.rank
    FROM
      (
        SELECT
          s.post_id,
          s.published_at,
          5 * (
            length(highlight (post_search_fts, 0, char(1), '')) - length(post_search_fts.title)
          ) + (
            length(highlight (post_search_fts, 1, char(1), '')) - length(post_search_fts.content)
          ) AS rank
        FROM
          post_search_fts
          JOIN post_search s ON s.doc = post_search_fts.rowid
        WHERE
          post_search_fts MATCH + ?
          AND s.published_at IS NOT NULL
        ORDER BY
          post_search_fts.rowid DESC
        LIMIT
          + ?
      ) m
    WHERE
      (
        m.rank < + ?
        OR (
          m.rank = + ?
          AND (m.published_at, m.post_id) < (+ ?, + ?)
        )
      )
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      + ?
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageWithTags
-- binds: match, tags, tagCount, rankWindow, first
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
  substr(coalesce(p.content_text, p.content), 1, 5000) AS "searchedText",
  g.rank
FROM
  (
    SELECT
      m.post_id,
      m.published_at,
      m.rank
    FROM
      (
        SELECT
          s.post_id,
          s.published_at,
          5 * (
            length(highlight (post_search_fts, 0, char(1), '')) - length(post_search_fts.title)
          ) + (
            length(highlight (post_search_fts, 1, char(1), '')) - length(post_search_fts.content)
          ) AS rank
        FROM
          post_search_fts
          JOIN post_search s ON s.doc = post_search_fts.rowid
        WHERE
          post_search_fts MATCH + ?
          AND s.published_at IS NOT NULL
          AND s.post_id IN (
            SELECT
              t.post_id
            FROM
              post_tags t
            WHERE
              t.slug IN (
                SELECT
                  value
                FROM
                  json_each(+ ?)
              )
            GROUP BY
              t.post_id
            HAVING
              COUNT(*) = + ?
          )
        ORDER BY
          post_search_fts.rowid DESC
        LIMIT
          + ?
      ) m
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      + ?
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageWithTagsAfter
-- binds: match, tags, tagCount, rankWindow, afterRank, afterRank, afterPublishedAt, afterId, first
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
  substr(coalesce(p.content_text, p.content), 1, 5000) AS "searchedText",
  g.rank
FROM
  (
    SELECT
      m.post_id,
      m.published_at,
      m.rank
    FROM
      (
        SELECT
          s.post_id,
          s.published_at,
          5 * (
            length(highlight (post_search_fts, 0, char(1), '')) - length(post_search_fts.title)
          ) + (
            length(highlight (post_search_fts, 1, char(1), '')) - length(post_search_fts.content)
          ) AS rank
        FROM
          post_search_fts
          JOIN post_search s ON s.doc = post_search_fts.rowid
        WHERE
          post_search_fts MATCH + ?
          AND s.published_at IS NOT NULL
          AND s.post_id IN (
            SELECT
              t.post_id
            FROM
              post_tags t
            WHERE
              t.slug IN (
                SELECT
                  value
                FROM
                  json_each(+ ?)
              )
            GROUP BY
              t.post_id
            HAVING
              COUNT(*) = + ?
          )
        ORDER BY
          post_search_fts.rowid DESC
        LIMIT
          + ?
      ) m
    WHERE
      (
        m.rank < + ?
        OR (
          m.rank = + ?
          AND (m.published_at, m.post_id) < (+ ?, + ?)
        )
      )
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      + ?
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageByPrefixes
-- binds: match, rankWindow, first
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
  substr(coalesce(p.content_text, p.content), 1, 5000) AS "searchedText",
  g.rank
FROM
  (
    SELECT
      m.post_id,
      m.published_at,
      m.rank
    FROM
      (
        SELECT
          s.post_id,
          s.published_at,
          5 * (
            length(highlight (post_search_fts, 0, char(1), '')) - length(post_search_fts.title)
          ) + (
            length(highlight (post_search_fts, 1, char(1), '')) - length(post_search_fts.content)
          ) AS rank
        FROM
          post_search_fts
          JOIN post_search s ON s.doc = post_search_fts.rowid
        WHERE
          post_search_fts MATCH + ?
          AND s.published_at IS NOT NULL
        ORDER BY
          post_search_fts.rowid DESC
        LIMIT
          + ?
      ) m
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      + ?
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageByPrefixesAfter
-- binds: match, rankWindow, afterRank, afterRank, afterPublishedAt, afterId, first
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
  substr(coalesce(p.content_text, p.content), 1, 5000) AS "searchedText",
  g.rank
FROM
  (
    SELECT
      m.post_id,
      m.published_at,
      m.rank
    FROM
      (
        SELECT
          s.post_id,
          s.published_at,
          5 * (
            length(highlight (post_search_fts, 0, char(1), '')) - length(post_search_fts.title)
          ) + (
            length(highlight (post_search_fts, 1, char(1), '')) - length(post_search_fts.content)
          ) AS rank
        FROM
          post_search_fts
          JOIN post_search s ON s.doc = post_search_fts.rowid
        WHERE
          post_search_fts MATCH + ?
          AND s.published_at IS NOT NULL
        ORDER BY
          post_search_fts.rowid DESC
        LIMIT
          + ?
      ) m
    WHERE
      (
        m.rank < + ?
        OR (
          m.rank = + ?
          AND (m.published_at, m.post_id) < (+ ?, + ?)
        )
      )
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      + ?
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageByPrefixesWithTags
-- binds: match, tags, tagCount, rankWindow, first
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
  substr(coalesce(p.content_text, p.content), 1, 5000) AS "searchedText",
  g.rank
FROM
  (
    SELECT
      m.post_id,
      m.published_at,
      m.rank
    FROM
      (
        SELECT
          s.post_id,
          s.published_at,
          5 * (
            length(highlight (post_search_fts, 0, char(1), '')) - length(post_search_fts.title)
          ) + (
            length(highlight (post_search_fts, 1, char(1), '')) - length(post_search_fts.content)
          ) AS rank
        FROM
          post_search_fts
          JOIN post_search s ON s.doc = post_search_fts.rowid
        WHERE
          post_search_fts MATCH + ?
          AND s.published_at IS NOT NULL
          AND s.post_id IN (
            SELECT
              t.post_id
            FROM
              post_tags t
            WHERE
              t.slug IN (
                SELECT
                  value
                FROM
                  json_each(+ ?)
              )
            GROUP BY
              t.post_id
            HAVING
              COUNT(*) = + ?
          )
        ORDER BY
          post_search_fts.rowid DESC
        LIMIT
          + ?
      ) m
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      + ?
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageByPrefixesWithTagsAfter
-- binds: match, tags, tagCount, rankWindow, afterRank, afterRank, afterPublishedAt, afterId, first
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
  substr(coalesce(p.content_text, p.content), 1, 5000) AS "searchedText",
  g.rank
FROM
  (
    SELECT
      m.post_id,
      m.published_at,
      m.rank
    FROM
      (
        SELECT
          s.post_id,
          s.published_at,
          5 * (
            length(highlight (post_search_fts, 0, char(1), '')) - length(post_search_fts.title)
          ) + (
            length(highlight (post_search_fts, 1, char(1), '')) - length(post_search_fts.content)
          ) AS rank
        FROM
          post_search_fts
          JOIN post_search s ON s.doc = post_search_fts.rowid
        WHERE
          post_search_fts MATCH + ?
          AND s.published_at IS NOT NULL
          AND s.post_id IN (
            SELECT
              t.post_id
            FROM
              post_tags t
            WHERE
              t.slug IN (
                SELECT
                  value
                FROM
                  json_each(+ ?)
              )
            GROUP BY
              t.post_id
            HAVING
              COUNT(*) = + ?
          )
        ORDER BY
          post_search_fts.rowid DESC
        LIMIT
          + ?
      ) m
    WHERE
      (
        m.rank < + ?
        OR (
          m.rank = + ?
          AND (m.published_at, m.post_id) < (+ ?, + ?)
        )
      )
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      + ?
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;
