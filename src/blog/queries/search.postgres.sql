-- Generated from src/blog/search/search.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- searchSql.page
-- binds: $1 tsquery, $2 first
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
              (
                SELECT
                  to_tsquery('simple', $1)
              )
            ) AS float8
          ) AS rank
        FROM
          post_search s
        WHERE
          s.document @@ (
            SELECT
              to_tsquery('simple', $1)
          )
          AND s.published_at IS NOT NULL
      ) m
    ORDER BY
      m.rank DESC,
      m.published_at DESC,
      m.post_id DESC
    LIMIT
      $2
  ) g
  JOIN posts p ON p.id = g.post_id
ORDER BY
  g.rank DESC,
  g.published_at DESC,
  g.post_id DESC;

-- searchSql.pageAfter
-- binds: $1 tsquery, $2 afterRank, $3 afterPublishedAt, $4 afterId, $5 first
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
              (
                SELECT
                  to_tsquery('simple', $1)
              )
            ) AS float8
          ) AS rank
        FROM
          post_search s
        WHERE
          s.document @@ (
            SELECT
              to_tsquery('simple', $1)
          )
          AND s.published_at IS NOT NULL
      ) m
    WHERE
      (
        m.rank < $2
        OR (
          m.rank = $2
          AND (m.published_at, m.post_id) < ($3, $4)
        )
      )
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

-- searchSql.pageWithTags
-- binds: $1 tsquery, $2 tags, $3 tagCount, $4 first
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
              (
                SELECT
                  to_tsquery('simple', $1)
              )
            ) AS float8
          ) AS rank
        FROM
          post_search s
        WHERE
          s.document @@ (
            SELECT
              to_tsquery('simple', $1)
          )
          AND s.published_at IS NOT NULL
      ) m
    WHERE
      m.post_id IN (
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

-- searchSql.pageWithTagsAfter
-- binds: $1 tsquery, $2 tags, $3 tagCount, $4 afterRank, $5 afterPublishedAt, $6 afterId, $7 first
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
              (
                SELECT
                  to_tsquery('simple', $1)
              )
            ) AS float8
          ) AS rank
        FROM
          post_search s
        WHERE
          s.document @@ (
            SELECT
              to_tsquery('simple', $1)
          )
          AND s.published_at IS NOT NULL
      ) m
    WHERE
      m.post_id IN (
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
      AND (
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
