-- Generated from src/blog/comments/comments.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- commentsSql.byId
-- binds: id
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
  c.id = + ?;

-- commentsSql.byIds
-- binds: ids
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
  c.id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- commentsSql.pagesByPosts
-- binds: postIds, viewerId, moderator, first
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
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
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
            x.author_id = + ?
            OR + ? = 1
          )
        )
      )
    ORDER BY
      x.id
    LIMIT
      + ?
  )
ORDER BY
  c.id;

-- commentsSql.pagesByPostsAfter
-- binds: postIds, viewerId, moderator, after, first
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
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
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
            x.author_id = + ?
            OR + ? = 1
          )
        )
      )
      AND x.id > + ?
    ORDER BY
      x.id
    LIMIT
      + ?
  )
ORDER BY
  c.id;

-- commentsSql.threadsOldest
-- binds: viewerId, viewerId, moderator, keys, viewerId, moderator, first
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
      AND l.user_id = + ?
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
        OR r.author_id = + ?
        OR + ? = 1
      )
  ) AS "repliesCount"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
    ORDER BY
      x.id
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.id;

-- commentsSql.threadsOldestAfter
-- binds: viewerId, viewerId, moderator, keys, viewerId, moderator, afterId, first
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
      AND l.user_id = + ?
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
        OR r.author_id = + ?
        OR + ? = 1
      )
  ) AS "repliesCount"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
      AND x.id > + ?
    ORDER BY
      x.id
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.id;

-- commentsSql.threadsNewest
-- binds: viewerId, viewerId, moderator, keys, viewerId, moderator, first
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
      AND l.user_id = + ?
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
        OR r.author_id = + ?
        OR + ? = 1
      )
  ) AS "repliesCount"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
    ORDER BY
      x.id DESC
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.id DESC;

-- commentsSql.threadsNewestAfter
-- binds: viewerId, viewerId, moderator, keys, viewerId, moderator, afterId, first
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
      AND l.user_id = + ?
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
        OR r.author_id = + ?
        OR + ? = 1
      )
  ) AS "repliesCount"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
      AND x.id < + ?
    ORDER BY
      x.id DESC
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.id DESC;

-- commentsSql.threadsTop
-- binds: viewerId, viewerId, moderator, keys, viewerId, moderator, first
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
      AND l.user_id = + ?
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
        OR r.author_id = + ?
        OR + ? = 1
      )
  ) AS "repliesCount"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
    ORDER BY
      x.likes_count DESC,
      x.id DESC
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.likes_count DESC,
  c.id DESC;

-- commentsSql.threadsTopAfter
-- binds: viewerId, viewerId, moderator, keys, viewerId, moderator, afterLikes, afterLikes, afterId, first
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
      AND l.user_id = + ?
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
        OR r.author_id = + ?
        OR + ? = 1
      )
  ) AS "repliesCount"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
      AND (
        x.likes_count < + ?
        OR (
          x.likes_count = + ?
          AND x.id < + ?
        )
      )
    ORDER BY
      x.likes_count DESC,
      x.id DESC
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.likes_count DESC,
  c.id DESC;

-- commentsSql.threadsOldestCounted
-- binds: viewerId, moderator, keys, viewerId, viewerId, moderator, keys, viewerId, moderator, first
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
            OR n.author_id = + ?
            OR + ? = 1
          )
      ) AS total
    FROM
      (
        SELECT
          value
        FROM
          json_each(+ ?)
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
      AND l.user_id = + ?
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
        OR r.author_id = + ?
        OR + ? = 1
      )
  ) AS "repliesCount",
  totals.total AS "threadsCount"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
    ORDER BY
      x.id
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
  JOIN totals ON totals.post_id = c.post_id
ORDER BY
  c.id;

-- commentsSql.threadsOldestAfterCounted
-- binds: viewerId, moderator, keys, viewerId, viewerId, moderator, keys, viewerId, moderator, afterId, first
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
            OR n.author_id = + ?
            OR + ? = 1
          )
      ) AS total
    FROM
      (
        SELECT
          value
        FROM
          json_each(+ ?)
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
      AND l.user_id = + ?
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
        OR r.author_id = + ?
        OR + ? = 1
      )
  ) AS "repliesCount",
  totals.total AS "threadsCount"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
      AND x.id > + ?
    ORDER BY
      x.id
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
  JOIN totals ON totals.post_id = c.post_id
ORDER BY
  c.id;

-- commentsSql.threadsNewestCounted
-- binds: viewerId, moderator, keys, viewerId, viewerId, moderator, keys, viewerId, moderator, first
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
            OR n.author_id = + ?
            OR + ? = 1
          )
      ) AS total
    FROM
      (
        SELECT
          value
        FROM
          json_each(+ ?)
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
      AND l.user_id = + ?
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
        OR r.author_id = + ?
        OR + ? = 1
      )
  ) AS "repliesCount",
  totals.total AS "threadsCount"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
    ORDER BY
      x.id DESC
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
  JOIN totals ON totals.post_id = c.post_id
ORDER BY
  c.id DESC;

-- commentsSql.threadsNewestAfterCounted
-- binds: viewerId, moderator, keys, viewerId, viewerId, moderator, keys, viewerId, moderator, afterId, first
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
            OR n.author_id = + ?
            OR + ? = 1
          )
      ) AS total
    FROM
      (
        SELECT
          value
        FROM
          json_each(+ ?)
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
      AND l.user_id = + ?
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
        OR r.author_id = + ?
        OR + ? = 1
      )
  ) AS "repliesCount",
  totals.total AS "threadsCount"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
      AND x.id < + ?
    ORDER BY
      x.id DESC
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
  JOIN totals ON totals.post_id = c.post_id
ORDER BY
  c.id DESC;

-- commentsSql.threadsTopCounted
-- binds: viewerId, moderator, keys, viewerId, viewerId, moderator, keys, viewerId, moderator, first
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
            OR n.author_id = + ?
            OR + ? = 1
          )
      ) AS total
    FROM
      (
        SELECT
          value
        FROM
          json_each(+ ?)
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
      AND l.user_id = + ?
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
        OR r.author_id = + ?
        OR + ? = 1
      )
  ) AS "repliesCount",
  totals.total AS "threadsCount"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
    ORDER BY
      x.likes_count DESC,
      x.id DESC
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
  JOIN totals ON totals.post_id = c.post_id
ORDER BY
  c.likes_count DESC,
  c.id DESC;

-- commentsSql.threadsTopAfterCounted
-- binds: viewerId, moderator, keys, viewerId, viewerId, moderator, keys, viewerId, moderator, afterLikes, afterLikes, afterId, first
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
            OR n.author_id = + ?
            OR + ? = 1
          )
      ) AS total
    FROM
      (
        SELECT
          value
        FROM
          json_each(+ ?)
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
      AND l.user_id = + ?
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
        OR r.author_id = + ?
        OR + ? = 1
      )
  ) AS "repliesCount",
  totals.total AS "threadsCount"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.post_id = k.value
      AND x.parent_id IS NULL
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
      AND (
        x.likes_count < + ?
        OR (
          x.likes_count = + ?
          AND x.id < + ?
        )
      )
    ORDER BY
      x.likes_count DESC,
      x.id DESC
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
  JOIN totals ON totals.post_id = c.post_id
ORDER BY
  c.likes_count DESC,
  c.id DESC;

-- commentsSql.replies
-- binds: viewerId, keys, viewerId, moderator, first
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
      AND l.user_id = + ?
  ) AS "likedByMe"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.parent_id = k.value
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
    ORDER BY
      x.id
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.id;

-- commentsSql.repliesAfter
-- binds: viewerId, keys, viewerId, moderator, afterId, first
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
      AND l.user_id = + ?
  ) AS "likedByMe"
FROM
  (
    SELECT
      value
    FROM
      json_each(+ ?)
  ) k
  JOIN comments c ON c.id IN (
    SELECT
      x.id
    FROM
      comments x
    WHERE
      x.parent_id = k.value
      AND (
        x.status IN ('published', 'deleted')
        OR x.author_id = + ?
        OR + ? = 1
      )
      AND x.id > + ?
    ORDER BY
      x.id
    LIMIT
      + ?
  )
  JOIN users u ON u.id = c.author_id
ORDER BY
  c.id;

-- commentsSql.postWithAuthorAndPage
-- binds: id, id, viewerId, moderator, first
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
  p.id = + ?
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
      x.post_id = + ?
      AND (
        x.status = 'published'
        OR (
          x.status <> 'deleted'
          AND (
            x.author_id = + ?
            OR + ? = 1
          )
        )
      )
    ORDER BY
      x.id
    LIMIT
      + ?
  )
ORDER BY
  "comment.id" NULLS FIRST;

-- commentsSql.countByPosts
-- binds: postIds, viewerId, moderator
SELECT
  c.post_id AS key,
  COUNT(*) AS count
FROM
  comments c
WHERE
  c.post_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
  AND (
    c.status = 'published'
    OR (
      c.status <> 'deleted'
      AND (
        c.author_id = + ?
        OR + ? = 1
      )
    )
  )
GROUP BY
  c.post_id;

-- commentsSql.countThreadsByPosts
-- binds: postIds, viewerId, moderator
SELECT
  c.post_id AS key,
  COUNT(*) AS count
FROM
  comments c
WHERE
  c.post_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
  AND c.parent_id IS NULL
  AND (
    c.status IN ('published', 'deleted')
    OR c.author_id = + ?
    OR + ? = 1
  )
GROUP BY
  c.post_id;

-- commentsSql.countRepliesByThreads
-- binds: ids, viewerId, moderator
SELECT
  c.parent_id AS key,
  COUNT(*) AS count
FROM
  comments c
WHERE
  c.parent_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  )
  AND (
    c.status IN ('published', 'deleted')
    OR c.author_id = + ?
    OR + ? = 1
  )
GROUP BY
  c.parent_id;

-- commentsSql.likedBy
-- binds: userId, ids
SELECT
  l.comment_id AS key
FROM
  comment_likes l
WHERE
  l.user_id = + ?
  AND l.comment_id IN (
    SELECT
      value
    FROM
      json_each(+ ?)
  );

-- commentsSql.insert
-- binds: id, text, textHtml, postId, authorId, createdAt, parentId, inReplyToId, status
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
  (+ ?, + ?, + ?, + ?, + ?, + ?, + ?, + ?, + ?, 0);

-- commentsSql.updateText
-- binds: text, textHtml, at, id
UPDATE comments
SET
  text = + ?,
  text_html = + ?,
  edited_at = + ?
WHERE
  id = + ?
  AND status <> 'deleted';

-- commentsSql.hasReplies
-- binds: id
SELECT
  1 AS one
FROM
  comments r
WHERE
  r.parent_id = + ?
LIMIT
  1;

-- commentsSql.tombstone
-- binds: id
UPDATE comments
SET
  status = 'deleted',
  text = '',
  text_html = '',
  likes_count = 0
WHERE
  id = + ?;

-- commentsSql.hide
-- binds: id
UPDATE comments
SET
  status = 'hidden'
WHERE
  id = + ?
  AND status = 'published';

-- commentsSql.restore
-- binds: id
UPDATE comments
SET
  status = 'published'
WHERE
  id = + ?
  AND status IN ('hidden', 'held');

-- commentsSql.forgetLikes
-- binds: id
DELETE FROM comment_likes
WHERE
  comment_id = + ?;

-- commentsSql.delete
-- binds: id
DELETE FROM comments
WHERE
  id = + ?;

-- commentsSql.deleteBareTombstone
-- binds: id, id
DELETE FROM comments
WHERE
  id = + ?
  AND status = 'deleted'
  AND NOT EXISTS (
    SELECT
      1
    FROM
      comments r
    WHERE
      r.parent_id = + ?
  );

-- commentsSql.like
-- binds: commentId, userId, createdAt
INSERT INTO
  comment_likes (comment_id, user_id, created_at)
VALUES
  (+ ?, + ?, + ?)
ON CONFLICT DO NOTHING;

-- commentsSql.unlike
-- binds: commentId, userId
DELETE FROM comment_likes
WHERE
  comment_id = + ?
  AND user_id = + ?;

-- commentsSql.addLikes
-- binds: delta, id
UPDATE comments
SET
  likes_count = likes_count + + ?
WHERE
  id = + ?;
