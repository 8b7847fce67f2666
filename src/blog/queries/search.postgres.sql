-- Generated from src/blog/search/search.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- searchSql.page
-- binds: $1 tsquery, $2 rankWindow, $3 first
-- planned for each run's values
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt",
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
          s.document @@ to_tsquery('simple', $1)
          AND s.published_at IS NOT NULL
        ORDER BY
          s.post_id DESC
        LIMIT
          $2
      ) m
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $3
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageAfter
-- binds: $1 tsquery, $2 rankWindow, $3 afterRank, $4 afterPublishedAt, $5 afterId, $6 first
-- planned for each run's values
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt",
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
          s.document @@ to_tsquery('simple', $1)
          AND s.published_at IS NOT NULL
        ORDER BY
          s.post_id DESC
        LIMIT
          $2
      ) m
    WHERE
      (
        m.rank < $3
        OR (
          m.rank = $3
          AND (m.published_at, m.post_id) < ($4, $5)
        )
      )
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

-- searchSql.pageWithTags
-- binds: $1 tsquery, $2 tags, $3 tagCount, $4 rankWindow, $5 first
-- planned for each run's values
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt",
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
          s.document @@ to_tsquery('simple', $1)
          AND s.published_at IS NOT NULL
          AND s.post_id IN (
            SELECT
              t.post_id
            FROM
              post_tags t
            WHERE
              t.slug = ANY ($2)
            GROUP BY
              t.post_id
            HAVING
              COUNT(*) = $3
          )
        ORDER BY
          s.post_id DESC
        LIMIT
          $4
      ) m
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $5
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageWithTagsAfter
-- binds: $1 tsquery, $2 tags, $3 tagCount, $4 rankWindow, $5 afterRank, $6 afterPublishedAt, $7 afterId, $8 first
-- planned for each run's values
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt",
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
          s.document @@ to_tsquery('simple', $1)
          AND s.published_at IS NOT NULL
          AND s.post_id IN (
            SELECT
              t.post_id
            FROM
              post_tags t
            WHERE
              t.slug = ANY ($2)
            GROUP BY
              t.post_id
            HAVING
              COUNT(*) = $3
          )
        ORDER BY
          s.post_id DESC
        LIMIT
          $4
      ) m
    WHERE
      (
        m.rank < $5
        OR (
          m.rank = $5
          AND (m.published_at, m.post_id) < ($6, $7)
        )
      )
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

-- searchSql.pageByPrefixes
-- binds: $1 tsquery, $2 wordsTsquery, $3 prefixesTsquery, $4 rankWindow, $5 first
-- planned for each run's values
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt",
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
          AND ts_match_vq (s.document, to_tsquery('simple', $1))
          AND s.published_at IS NOT NULL
        ORDER BY
          s.post_id DESC
        LIMIT
          $4
      ) m
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $5
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageByPrefixesAfter
-- binds: $1 tsquery, $2 wordsTsquery, $3 prefixesTsquery, $4 rankWindow, $5 afterRank, $6 afterPublishedAt, $7 afterId, $8 first
-- planned for each run's values
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt",
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
          AND ts_match_vq (s.document, to_tsquery('simple', $1))
          AND s.published_at IS NOT NULL
        ORDER BY
          s.post_id DESC
        LIMIT
          $4
      ) m
    WHERE
      (
        m.rank < $5
        OR (
          m.rank = $5
          AND (m.published_at, m.post_id) < ($6, $7)
        )
      )
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

-- searchSql.pageByPrefixesWithTags
-- binds: $1 tsquery, $2 wordsTsquery, $3 prefixesTsquery, $4 tags, $5 tagCount, $6 rankWindow, $7 first
-- planned for each run's values
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt",
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
          AND ts_match_vq (s.document, to_tsquery('simple', $1))
          AND s.published_at IS NOT NULL
          AND s.post_id IN (
            SELECT
              t.post_id
            FROM
              post_tags t
            WHERE
              t.slug = ANY ($4)
            GROUP BY
              t.post_id
            HAVING
              COUNT(*) = $5
          )
        ORDER BY
          s.post_id DESC
        LIMIT
          $6
      ) m
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

-- searchSql.pageByPrefixesWithTagsAfter
-- binds: $1 tsquery, $2 wordsTsquery, $3 prefixesTsquery, $4 tags, $5 tagCount, $6 rankWindow, $7 afterRank, $8 afterPublishedAt, $9 afterId, $10 first
-- planned for each run's values
SELECT
  p.id,
  p.title,
  p.content,
  p.author_id AS "authorId",
  p.created_at AS "createdAt",
  p.updated_at AS "updatedAt",
  p.published_at AS "publishedAt",
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
          AND ts_match_vq (s.document, to_tsquery('simple', $1))
          AND s.published_at IS NOT NULL
          AND s.post_id IN (
            SELECT
              t.post_id
            FROM
              post_tags t
            WHERE
              t.slug = ANY ($4)
            GROUP BY
              t.post_id
            HAVING
              COUNT(*) = $5
          )
        ORDER BY
          s.post_id DESC
        LIMIT
          $6
      ) m
    WHERE
      (
        m.rank < $7
        OR (
          m.rank = $7
          AND (m.published_at, m.post_id) < ($8, $9)
        )
      )
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $10
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;
