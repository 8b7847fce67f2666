-- Generated from src/blog/search/search.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- searchSql.page
-- binds: $1 rankTsquery, $2 tsquery, $3 rankWindow, $4 first
-- planned for each run's values
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
          CAST(
            ts_rank(
              CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]),
              s.document,
              to_tsquery('simple', $1)
            ) AS float8
          ) AS rank
        FROM
          post_search s
        WHERE
          s.document @@ to_tsquery('simple', $2)
          AND s.published_at IS NOT NULL
        ORDER BY
          s.post_id DESC
        LIMIT
          $3
      ) m
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $4
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageAfter
-- binds: $1 rankTsquery, $2 tsquery, $3 rankWindow, $4 afterRank, $5 afterPublishedAt, $6 afterId, $7 first
-- planned for each run's values
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
          CAST(
            ts_rank(
              CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]),
              s.document,
              to_tsquery('simple', $1)
            ) AS float8
          ) AS rank
        FROM
          post_search s
        WHERE
          s.document @@ to_tsquery('simple', $2)
          AND s.published_at IS NOT NULL
        ORDER BY
          s.post_id DESC
        LIMIT
          $3
      ) m
    WHERE
      (
        m.rank < $4
        OR (
          m.rank = $4
          AND (m.published_at, m.post_id) < ($5, $6)
        )
      )
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $7
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageWithTags
-- binds: $1 rankTsquery, $2 tsquery, $3 tags, $4 tagCount, $5 rankWindow, $6 first
-- planned for each run's values
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
          CAST(
            ts_rank(
              CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]),
              s.document,
              to_tsquery('simple', $1)
            ) AS float8
          ) AS rank
        FROM
          post_search s
        WHERE
          s.document @@ to_tsquery('simple', $2)
          AND s.published_at IS NOT NULL
          AND s.post_id IN (
            SELECT
              t.post_id
            FROM
              post_tags t
            WHERE
              t.slug = ANY ($3)
            GROUP BY
              t.post_id
            HAVING
              COUNT(*) = $4
          )
        ORDER BY
          s.post_id DESC
        LIMIT
          $5
      ) m
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $6
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageWithTagsAfter
-- binds: $1 rankTsquery, $2 tsquery, $3 tags, $4 tagCount, $5 rankWindow, $6 afterRank, $7 afterPublishedAt, $8 afterId, $9 first
-- planned for each run's values
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
          CAST(
            ts_rank(
              CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]),
              s.document,
              to_tsquery('simple', $1)
            ) AS float8
          ) AS rank
        FROM
          post_search s
        WHERE
          s.document @@ to_tsquery('simple', $2)
          AND s.published_at IS NOT NULL
          AND s.post_id IN (
            SELECT
              t.post_id
            FROM
              post_tags t
            WHERE
              t.slug = ANY ($3)
            GROUP BY
              t.post_id
            HAVING
              COUNT(*) = $4
          )
        ORDER BY
          s.post_id DESC
        LIMIT
          $5
      ) m
    WHERE
      (
        m.rank < $6
        OR (
          m.rank = $6
          AND (m.published_at, m.post_id) < ($7, $8)
        )
      )
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $9
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageByPrefixes
-- binds: $1 rankTsquery, $2 wordsTsquery, $3 prefixesTsquery, $4 tsquery, $5 rankWindow, $6 first
-- planned for each run's values
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
          CAST(
            ts_rank(
              CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]),
              s.document,
              to_tsquery('simple', $1)
            ) AS float8
          ) AS rank
        FROM
          post_search s
        WHERE
          s.document @@ to_tsquery('simple', $2)
          AND post_search_prefixes (s.document) @@ to_tsquery('simple', $3)
          AND ts_match_vq (s.document, to_tsquery('simple', $4))
          AND s.published_at IS NOT NULL
        ORDER BY
          s.post_id DESC
        LIMIT
          $5
      ) m
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $6
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageByPrefixesAfter
-- binds: $1 rankTsquery, $2 wordsTsquery, $3 prefixesTsquery, $4 tsquery, $5 rankWindow, $6 afterRank, $7 afterPublishedAt, $8 afterId, $9 first
-- planned for each run's values
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
          CAST(
            ts_rank(
              CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]),
              s.document,
              to_tsquery('simple', $1)
            ) AS float8
          ) AS rank
        FROM
          post_search s
        WHERE
          s.document @@ to_tsquery('simple', $2)
          AND post_search_prefixes (s.document) @@ to_tsquery('simple', $3)
          AND ts_match_vq (s.document, to_tsquery('simple', $4))
          AND s.published_at IS NOT NULL
        ORDER BY
          s.post_id DESC
        LIMIT
          $5
      ) m
    WHERE
      (
        m.rank < $6
        OR (
          m.rank = $6
          AND (m.published_at, m.post_id) < ($7, $8)
        )
      )
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $9
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageByPrefixesWithTags
-- binds: $1 rankTsquery, $2 wordsTsquery, $3 prefixesTsquery, $4 tsquery, $5 tags, $6 tagCount, $7 rankWindow, $8 first
-- planned for each run's values
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
          CAST(
            ts_rank(
              CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]),
              s.document,
              to_tsquery('simple', $1)
            ) AS float8
          ) AS rank
        FROM
          post_search s
        WHERE
          s.document @@ to_tsquery('simple', $2)
          AND post_search_prefixes (s.document) @@ to_tsquery('simple', $3)
          AND ts_match_vq (s.document, to_tsquery('simple', $4))
          AND s.published_at IS NOT NULL
          AND s.post_id IN (
            SELECT
              t.post_id
            FROM
              post_tags t
            WHERE
              t.slug = ANY ($5)
            GROUP BY
              t.post_id
            HAVING
              COUNT(*) = $6
          )
        ORDER BY
          s.post_id DESC
        LIMIT
          $7
      ) m
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $8
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageByPrefixesWithTagsAfter
-- binds: $1 rankTsquery, $2 wordsTsquery, $3 prefixesTsquery, $4 tsquery, $5 tags, $6 tagCount, $7 rankWindow, $8 afterRank, $9 afterPublishedAt, $10 afterId, $11 first
-- planned for each run's values
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
          CAST(
            ts_rank(
              CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]),
              s.document,
              to_tsquery('simple', $1)
            ) AS float8
          ) AS rank
        FROM
          post_search s
        WHERE
          s.document @@ to_tsquery('simple', $2)
          AND post_search_prefixes (s.document) @@ to_tsquery('simple', $3)
          AND ts_match_vq (s.document, to_tsquery('simple', $4))
          AND s.published_at IS NOT NULL
          AND s.post_id IN (
            SELECT
              t.post_id
            FROM
              post_tags t
            WHERE
              t.slug = ANY ($5)
            GROUP BY
              t.post_id
            HAVING
              COUNT(*) = $6
          )
        ORDER BY
          s.post_id DESC
        LIMIT
          $7
      ) m
    WHERE
      (
        m.rank < $8
        OR (
          m.rank = $8
          AND (m.published_at, m.post_id) < ($9, $10)
        )
      )
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $11
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;
