-- Generated from src/blog/comments/comments.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- commentsSql.byId
-- binds: $1 id
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount"
FROM
  comments c
WHERE
  c.id = $1;

-- commentsSql.byIds
-- binds: $1 ids
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount"
FROM
  comments c
WHERE
  c.id = ANY ($1);

-- commentsSql.pagesByPosts
-- binds: $1 postIds, $2 viewerId, $3 moderator, $4 first
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount"
FROM
  (
    SELECT
      unnest(CAST($1 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND (
        x.status = 'published'
        OR (
          x.status <> 'deleted'
          AND (
            x.author_id = $2
            OR $3 = 1
          )
        )
      )
    ORDER BY
      x.id
    LIMIT
      $4
  ) t
  JOIN comments c ON c.id = t.id
ORDER BY
  c.id;

-- commentsSql.pagesByPostsAfter
-- binds: $1 postIds, $2 viewerId, $3 moderator, $4 after, $5 first
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount"
FROM
  (
    SELECT
      unnest(CAST($1 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND (
        x.status = 'published'
        OR (
          x.status <> 'deleted'
          AND (
            x.author_id = $2
            OR $3 = 1
          )
        )
      )
      AND x.id > $4
    ORDER BY
      x.id
    LIMIT
      $5
  ) t
  JOIN comments c ON c.id = t.id
ORDER BY
  c.id;

-- commentsSql.threadsOldest
-- binds: $1 viewerId, $2 moderator, $3 keys, $4 first
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe",
  (
    SELECT
      COUNT(*)
    FROM
      comments r
    WHERE
      r.parent_id = c.id
      AND (
        r.status IN ('published', 'deleted')
        OR r.author_id = $1
        OR $2 = 1
      )
  ) AS "repliesCount"
FROM
  (
    SELECT
      unnest(CAST($3 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $2 = 1
      )
    ORDER BY
      x.id
    LIMIT
      $4
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.id;

-- commentsSql.threadsOldestAfter
-- binds: $1 viewerId, $2 moderator, $3 keys, $4 afterId, $5 first
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe",
  (
    SELECT
      COUNT(*)
    FROM
      comments r
    WHERE
      r.parent_id = c.id
      AND (
        r.status IN ('published', 'deleted')
        OR r.author_id = $1
        OR $2 = 1
      )
  ) AS "repliesCount"
FROM
  (
    SELECT
      unnest(CAST($3 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $2 = 1
      )
      AND x.id > $4
    ORDER BY
      x.id
    LIMIT
      $5
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.id;

-- commentsSql.threadsNewest
-- binds: $1 viewerId, $2 moderator, $3 keys, $4 first
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe",
  (
    SELECT
      COUNT(*)
    FROM
      comments r
    WHERE
      r.parent_id = c.id
      AND (
        r.status IN ('published', 'deleted')
        OR r.author_id = $1
        OR $2 = 1
      )
  ) AS "repliesCount"
FROM
  (
    SELECT
      unnest(CAST($3 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $2 = 1
      )
    ORDER BY
      x.id DESC
    LIMIT
      $4
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.id DESC;

-- commentsSql.threadsNewestAfter
-- binds: $1 viewerId, $2 moderator, $3 keys, $4 afterId, $5 first
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe",
  (
    SELECT
      COUNT(*)
    FROM
      comments r
    WHERE
      r.parent_id = c.id
      AND (
        r.status IN ('published', 'deleted')
        OR r.author_id = $1
        OR $2 = 1
      )
  ) AS "repliesCount"
FROM
  (
    SELECT
      unnest(CAST($3 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $2 = 1
      )
      AND x.id < $4
    ORDER BY
      x.id DESC
    LIMIT
      $5
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.id DESC;

-- commentsSql.threadsTop
-- binds: $1 viewerId, $2 moderator, $3 keys, $4 first
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe",
  (
    SELECT
      COUNT(*)
    FROM
      comments r
    WHERE
      r.parent_id = c.id
      AND (
        r.status IN ('published', 'deleted')
        OR r.author_id = $1
        OR $2 = 1
      )
  ) AS "repliesCount"
FROM
  (
    SELECT
      unnest(CAST($3 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $2 = 1
      )
    ORDER BY
      x.likes_count DESC,
      x.id DESC
    LIMIT
      $4
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.likes_count DESC,
  c.id DESC;

-- commentsSql.threadsTopAfter
-- binds: $1 viewerId, $2 moderator, $3 keys, $4 afterLikes, $5 afterId, $6 first
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe",
  (
    SELECT
      COUNT(*)
    FROM
      comments r
    WHERE
      r.parent_id = c.id
      AND (
        r.status IN ('published', 'deleted')
        OR r.author_id = $1
        OR $2 = 1
      )
  ) AS "repliesCount"
FROM
  (
    SELECT
      unnest(CAST($3 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $2 = 1
      )
      AND (
        x.likes_count < $4
        OR (
          x.likes_count = $4
          AND x.id < $5
        )
      )
    ORDER BY
      x.likes_count DESC,
      x.id DESC
    LIMIT
      $6
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.likes_count DESC,
  c.id DESC;

-- commentsSql.threadsOldestCounted
-- binds: $1 viewerId, $2 moderator, $3 keys, $4 first
WITH
  totals AS MATERIALIZED (
    SELECT
      t.value AS post_id,
      (
        SELECT
          COUNT(*)
        FROM
          comments n
        WHERE
          n.post_id = t.value
          AND n.parent_id IS NULL
          AND (
            n.status IN ('published', 'deleted')
            OR n.author_id = $1
            OR $2 = 1
          )
      ) AS total
    FROM
      (
        SELECT
          unnest(CAST($3 AS varchar[])) AS value
      ) t
  )
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe",
  (
    SELECT
      COUNT(*)
    FROM
      comments r
    WHERE
      r.parent_id = c.id
      AND (
        r.status IN ('published', 'deleted')
        OR r.author_id = $1
        OR $2 = 1
      )
  ) AS "repliesCount",
  totals.total AS "threadsCount"
FROM
  (
    SELECT
      unnest(CAST($3 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $2 = 1
      )
    ORDER BY
      x.id
    LIMIT
      $4
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
  JOIN totals ON totals.post_id = c.post_id
ORDER BY
  c.id;

-- commentsSql.threadsOldestAfterCounted
-- binds: $1 viewerId, $2 moderator, $3 keys, $4 afterId, $5 first
WITH
  totals AS MATERIALIZED (
    SELECT
      t.value AS post_id,
      (
        SELECT
          COUNT(*)
        FROM
          comments n
        WHERE
          n.post_id = t.value
          AND n.parent_id IS NULL
          AND (
            n.status IN ('published', 'deleted')
            OR n.author_id = $1
            OR $2 = 1
          )
      ) AS total
    FROM
      (
        SELECT
          unnest(CAST($3 AS varchar[])) AS value
      ) t
  )
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe",
  (
    SELECT
      COUNT(*)
    FROM
      comments r
    WHERE
      r.parent_id = c.id
      AND (
        r.status IN ('published', 'deleted')
        OR r.author_id = $1
        OR $2 = 1
      )
  ) AS "repliesCount",
  totals.total AS "threadsCount"
FROM
  (
    SELECT
      unnest(CAST($3 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $2 = 1
      )
      AND x.id > $4
    ORDER BY
      x.id
    LIMIT
      $5
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
  JOIN totals ON totals.post_id = c.post_id
ORDER BY
  c.id;

-- commentsSql.threadsNewestCounted
-- binds: $1 viewerId, $2 moderator, $3 keys, $4 first
WITH
  totals AS MATERIALIZED (
    SELECT
      t.value AS post_id,
      (
        SELECT
          COUNT(*)
        FROM
          comments n
        WHERE
          n.post_id = t.value
          AND n.parent_id IS NULL
          AND (
            n.status IN ('published', 'deleted')
            OR n.author_id = $1
            OR $2 = 1
          )
      ) AS total
    FROM
      (
        SELECT
          unnest(CAST($3 AS varchar[])) AS value
      ) t
  )
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe",
  (
    SELECT
      COUNT(*)
    FROM
      comments r
    WHERE
      r.parent_id = c.id
      AND (
        r.status IN ('published', 'deleted')
        OR r.author_id = $1
        OR $2 = 1
      )
  ) AS "repliesCount",
  totals.total AS "threadsCount"
FROM
  (
    SELECT
      unnest(CAST($3 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $2 = 1
      )
    ORDER BY
      x.id DESC
    LIMIT
      $4
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
  JOIN totals ON totals.post_id = c.post_id
ORDER BY
  c.id DESC;

-- commentsSql.threadsNewestAfterCounted
-- binds: $1 viewerId, $2 moderator, $3 keys, $4 afterId, $5 first
WITH
  totals AS MATERIALIZED (
    SELECT
      t.value AS post_id,
      (
        SELECT
          COUNT(*)
        FROM
          comments n
        WHERE
          n.post_id = t.value
          AND n.parent_id IS NULL
          AND (
            n.status IN ('published', 'deleted')
            OR n.author_id = $1
            OR $2 = 1
          )
      ) AS total
    FROM
      (
        SELECT
          unnest(CAST($3 AS varchar[])) AS value
      ) t
  )
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe",
  (
    SELECT
      COUNT(*)
    FROM
      comments r
    WHERE
      r.parent_id = c.id
      AND (
        r.status IN ('published', 'deleted')
        OR r.author_id = $1
        OR $2 = 1
      )
  ) AS "repliesCount",
  totals.total AS "threadsCount"
FROM
  (
    SELECT
      unnest(CAST($3 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $2 = 1
      )
      AND x.id < $4
    ORDER BY
      x.id DESC
    LIMIT
      $5
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
  JOIN totals ON totals.post_id = c.post_id
ORDER BY
  c.id DESC;

-- commentsSql.threadsTopCounted
-- binds: $1 viewerId, $2 moderator, $3 keys, $4 first
WITH
  totals AS MATERIALIZED (
    SELECT
      t.value AS post_id,
      (
        SELECT
          COUNT(*)
        FROM
          comments n
        WHERE
          n.post_id = t.value
          AND n.parent_id IS NULL
          AND (
            n.status IN ('published', 'deleted')
            OR n.author_id = $1
            OR $2 = 1
          )
      ) AS total
    FROM
      (
        SELECT
          unnest(CAST($3 AS varchar[])) AS value
      ) t
  )
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe",
  (
    SELECT
      COUNT(*)
    FROM
      comments r
    WHERE
      r.parent_id = c.id
      AND (
        r.status IN ('published', 'deleted')
        OR r.author_id = $1
        OR $2 = 1
      )
  ) AS "repliesCount",
  totals.total AS "threadsCount"
FROM
  (
    SELECT
      unnest(CAST($3 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $2 = 1
      )
    ORDER BY
      x.likes_count DESC,
      x.id DESC
    LIMIT
      $4
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
  JOIN totals ON totals.post_id = c.post_id
ORDER BY
  c.likes_count DESC,
  c.id DESC;

-- commentsSql.threadsTopAfterCounted
-- binds: $1 viewerId, $2 moderator, $3 keys, $4 afterLikes, $5 afterId, $6 first
WITH
  totals AS MATERIALIZED (
    SELECT
      t.value AS post_id,
      (
        SELECT
          COUNT(*)
        FROM
          comments n
        WHERE
          n.post_id = t.value
          AND n.parent_id IS NULL
          AND (
            n.status IN ('published', 'deleted')
            OR n.author_id = $1
            OR $2 = 1
          )
      ) AS total
    FROM
      (
        SELECT
          unnest(CAST($3 AS varchar[])) AS value
      ) t
  )
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe",
  (
    SELECT
      COUNT(*)
    FROM
      comments r
    WHERE
      r.parent_id = c.id
      AND (
        r.status IN ('published', 'deleted')
        OR r.author_id = $1
        OR $2 = 1
      )
  ) AS "repliesCount",
  totals.total AS "threadsCount"
FROM
  (
    SELECT
      unnest(CAST($3 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $2 = 1
      )
      AND (
        x.likes_count < $4
        OR (
          x.likes_count = $4
          AND x.id < $5
        )
      )
    ORDER BY
      x.likes_count DESC,
      x.id DESC
    LIMIT
      $6
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
  JOIN totals ON totals.post_id = c.post_id
ORDER BY
  c.likes_count DESC,
  c.id DESC;

-- commentsSql.replies
-- binds: $1 viewerId, $2 keys, $3 moderator, $4 first
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe"
FROM
  (
    SELECT
      unnest(CAST($2 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.parent_id = k.value
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $3 = 1
      )
    ORDER BY
      x.id
    LIMIT
      $4
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.id;

-- commentsSql.repliesAfter
-- binds: $1 viewerId, $2 keys, $3 moderator, $4 afterId, $5 first
SELECT
  c.id,
  c.text,
  c.text_html AS "textHtml",
  c.post_id AS "postId",
  c.author_id AS "authorId",
  c.created_at AS "createdAt",
  c.parent_id AS "parentId",
  c.in_reply_to_id AS "inReplyToId",
  c.status,
  c.edited_at AS "editedAt",
  c.likes_count AS "likesCount",
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
  u.ban_reason AS "author.banReason",
  EXISTS (
    SELECT
      1
    FROM
      comment_likes l
    WHERE
      l.comment_id = c.id
      AND l.user_id = $1
  ) AS "likedByMe"
FROM
  (
    SELECT
      unnest(CAST($2 AS varchar[])) AS value
  ) k
  CROSS JOIN LATERAL (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.parent_id = k.value
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = $1
        OR $3 = 1
      )
      AND x.id > $4
    ORDER BY
      x.id
    LIMIT
      $5
  ) t
  JOIN comments c ON c.id = t.id
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.id;

-- commentsSql.postWithAuthorAndPage
-- binds: $1 id, $2 viewerId, $3 moderator, $4 first
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
  u.ban_reason AS "author.banReason",
  NULL AS "comment.id",
  NULL AS "comment.text",
  NULL AS "comment.textHtml",
  NULL AS "comment.postId",
  NULL AS "comment.authorId",
  NULL AS "comment.createdAt",
  NULL AS "comment.parentId",
  NULL AS "comment.inReplyToId",
  NULL AS "comment.status",
  NULL AS "comment.editedAt",
  NULL AS "comment.likesCount"
FROM
  posts p
  JOIN users u ON u.id = p.author_id
WHERE
  p.id = $1
UNION ALL
SELECT
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  c.id AS "comment.id",
  c.text AS "comment.text",
  c.text_html AS "comment.textHtml",
  c.post_id AS "comment.postId",
  c.author_id AS "comment.authorId",
  c.created_at AS "comment.createdAt",
  c.parent_id AS "comment.parentId",
  c.in_reply_to_id AS "comment.inReplyToId",
  c.status AS "comment.status",
  c.edited_at AS "comment.editedAt",
  c.likes_count AS "comment.likesCount"
FROM
  comments c
WHERE
  c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = $1
      AND (
        x.status = 'published'
        OR (
          x.status <> 'deleted'
          AND (
            x.author_id = $2
            OR $3 = 1
          )
        )
      )
    ORDER BY
      x.id
    LIMIT
      $4
  )
ORDER BY
  "comment.id" NULLS FIRST;

-- commentsSql.countByPosts
-- binds: $1 postIds, $2 viewerId, $3 moderator
SELECT
  c.post_id AS key,
  COUNT(*) AS count
FROM
  comments c
WHERE
  c.post_id = ANY ($1)
  AND (
    c.status = 'published'
    OR (
      c.status <> 'deleted'
      AND (
        c.author_id = $2
        OR $3 = 1
      )
    )
  )
GROUP BY
  c.post_id;

-- commentsSql.countThreadsByPosts
-- binds: $1 postIds, $2 viewerId, $3 moderator
SELECT
  c.post_id AS key,
  COUNT(*) AS count
FROM
  comments c
WHERE
  c.post_id = ANY ($1)
  AND c.parent_id IS NULL
  AND (
    c.status IN ('published', 'deleted')
    OR c.author_id = $2
    OR $3 = 1
  )
GROUP BY
  c.post_id;

-- commentsSql.countRepliesByThreads
-- binds: $1 ids, $2 viewerId, $3 moderator
SELECT
  c.parent_id AS key,
  COUNT(*) AS count
FROM
  comments c
WHERE
  c.parent_id = ANY ($1)
  AND (
    c.status IN ('published', 'deleted')
    OR c.author_id = $2
    OR $3 = 1
  )
GROUP BY
  c.parent_id;

-- commentsSql.likedBy
-- binds: $1 userId, $2 ids
SELECT
  l.comment_id AS key
FROM
  comment_likes l
WHERE
  l.user_id = $1
  AND l.comment_id = ANY ($2);

-- commentsSql.insert
-- binds: $1 id, $2 text, $3 textHtml, $4 postId, $5 authorId, $6 createdAt, $7 parentId, $8 inReplyToId, $9 status
INSERT INTO
  comments (
    id,
    text,
    text_html,
    post_id,
    author_id,
    created_at,
    parent_id,
    in_reply_to_id,
    status,
    likes_count
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0);

-- commentsSql.updateText
-- binds: $1 text, $2 textHtml, $3 at, $4 id
UPDATE comments
SET
  text = $1,
  text_html = $2,
  edited_at = $3
WHERE
  id = $4
  AND status <> 'deleted';

-- commentsSql.hasReplies
-- binds: $1 id
SELECT
  1 AS one
FROM
  comments r
WHERE
  r.parent_id = $1
LIMIT
  1;

-- commentsSql.tombstone
-- binds: $1 id
UPDATE comments
SET
  status = 'deleted',
  text = '',
  text_html = '',
  likes_count = 0
WHERE
  id = $1;

-- commentsSql.hide
-- binds: $1 id
UPDATE comments
SET
  status = 'hidden'
WHERE
  id = $1
  AND status = 'published';

-- commentsSql.restore
-- binds: $1 id
UPDATE comments
SET
  status = 'published'
WHERE
  id = $1
  AND status IN ('hidden', 'held');

-- commentsSql.forgetLikes
-- binds: $1 id
DELETE FROM comment_likes
WHERE
  comment_id = $1;

-- commentsSql.delete
-- binds: $1 id
DELETE FROM comments
WHERE
  id = $1;

-- commentsSql.deleteBareTombstone
-- binds: $1 id
DELETE FROM comments
WHERE
  id = $1
  AND status = 'deleted'
  AND NOT EXISTS (
    SELECT
      1
    FROM
      comments r
    WHERE
      r.parent_id = $1
  );

-- commentsSql.like
-- binds: $1 commentId, $2 userId, $3 createdAt
INSERT INTO
  comment_likes (comment_id, user_id, created_at)
VALUES
  ($1, $2, $3)
ON CONFLICT DO NOTHING;

-- commentsSql.unlike
-- binds: $1 commentId, $2 userId
DELETE FROM comment_likes
WHERE
  comment_id = $1
  AND user_id = $2;

-- commentsSql.addLikes
-- binds: $1 delta, $2 id
UPDATE comments
SET
  likes_count = likes_count + $1
WHERE
  id = $2;
