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
          w.post_id,
          w.published_at,
          CAST(
            ts_rank(
              CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]),
              w.document,
              to_tsquery('simple', $1)
            ) AS float8
          ) AS rank
        FROM
          (
            SELECT
              s.post_id,
              s.published_at,
              s.document
            FROM
              post_search s
            WHERE
              s.document @@ to_tsquery('simple', $1)
              AND s.published_at IS NOT NULL
            ORDER BY
              s.post_id DESC
            LIMIT
              $2
          ) w
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
          w.post_id,
          w.published_at,
          CAST(
            ts_rank(
              CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]),
              w.document,
              to_tsquery('simple', $1)
            ) AS float8
          ) AS rank
        FROM
          (
            SELECT
              s.post_id,
              s.published_at,
              s.document
            FROM
              post_search s
            WHERE
              s.document @@ to_tsquery('simple', $1)
              AND s.published_at IS NOT NULL
            ORDER BY
              s.post_id DESC
            LIMIT
              $2
          ) w
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
          w.post_id,
          w.published_at,
          CAST(
            ts_rank(
              CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]),
              w.document,
              to_tsquery('simple', $1)
            ) AS float8
          ) AS rank
        FROM
          (
            SELECT
              s.post_id,
              s.published_at,
              s.document
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
          ) w
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
          w.post_id,
          w.published_at,
          CAST(
            ts_rank(
              CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]),
              w.document,
              to_tsquery('simple', $1)
            ) AS float8
          ) AS rank
        FROM
          (
            SELECT
              s.post_id,
              s.published_at,
              s.document
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
          ) w
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
