import { perDialect, rowId, selected, statement } from '../common/sql';

/** A notification as the statements read it. */
export interface NotificationRow {
  id: string;
  recipientId: string;
  actorId: string;
  kind: string;
  postId: string | null;
  commentId?: string | null;
  createdAt: Date | string;
  readAt: Date | string | null;
}

/** A publication whose followers are still to be notified (see `PublicationFanOut`). */
export interface PendingPublicationRow {
  id: number | string;
  postId: string;
  actorId: string;
  createdAt: Date | string;
  /** The last follower notified so far (by id); null before the first chunk. */
  afterFollower: string | null;
  attempts: number;
}

/**
 * How many followers one chunk of a fan-out notifies, and about the most one fan-out transaction
 * writes: small publications share a transaction, a large one takes several.
 */
export const FAN_OUT_CHUNK = 500;

/** How many pending publications one fan-out transaction takes at most. */
export const FAN_OUT_BATCH = 32;

/** A page of a recipient's notifications: its size, and the id it continues after. */
export interface NotificationPageParameters {
  recipientId: string;
  first: number;
  afterId?: string;
}

/** A notification that names its recipient: FOLLOWED (no post), POST_LIKED, POST_COMMENTED. */
export interface NotificationParameters {
  id: string;
  recipientId: string;
  actorId: string;
  kind: string;
  postId: string | null;
  /** The comment of a POST_COMMENTED, which takes the notification with it when deleted. */
  commentId: string | null;
  createdAt: Date;
}

const COLUMNS =
  'n.id, n.recipient_id AS "recipientId", n.actor_id AS "actorId", n.kind, ' +
  'n.post_id AS "postId", n.comment_id AS "commentId", n.created_at AS "createdAt", ' +
  'n.read_at AS "readAt"';

/**
 * Notifications about a post that is a draft now stay out of every list, count and mark, as
 * long as it is one: drafts stay private. A deleted post's notifications go by the foreign key.
 */
const visible = (postId: string) =>
  `(${postId} IS NULL OR EXISTS ` +
  `(SELECT 1 FROM posts p WHERE p.id = ${postId} AND p.published_at IS NOT NULL))`;
const VISIBLE = visible('n.post_id');

/** Newest first along the (recipient, id) index: ids are time-ordered. */
const page = (unreadOnly: boolean, after: boolean) =>
  statement<NotificationPageParameters, NotificationRow>(
    `SELECT ${COLUMNS} FROM notifications n WHERE n.recipient_id = :recipientId` +
      (unreadOnly ? ' AND n.read_at IS NULL' : '') +
      (after ? ' AND n.id < :afterId' : '') +
      ` AND ${VISIBLE} ORDER BY n.id DESC LIMIT :first`,
  );

/** The same notification, still unread: raising it again while it is would add a duplicate. */
const unreadAlike = (withPost: boolean | 'comment', u = '') =>
  `${u}recipient_id = :recipientId AND ${u}actor_id = :actorId AND ${u}kind = :kind AND ` +
  `${u}post_id ${withPost ? '= :postId' : 'IS NULL'} AND ${u}read_at IS NULL` +
  (withPost === 'comment' ? ` AND ${u}comment_id = :commentId` : '');

/** What makes a notification the same as another: its post, no post, or its comment. */
const ALIKE_BY = { post: true, noPost: false, comment: 'comment' } as const;

const insertOne = (unlessUnread: 'post' | 'noPost' | 'comment' | false) =>
  statement<NotificationParameters>(
    perDialect(
      (dialect) =>
        'INSERT INTO notifications (id, recipient_id, actor_id, kind, post_id, comment_id, created_at) ' +
        'SELECT ' +
        ['id', 'recipientId', 'actorId', 'kind', 'postId', 'commentId']
          .map((name) => selected(dialect, name))
          .join(', ') +
        `, ${selected(dialect, 'createdAt', 'timestamptz')}` +
        (unlessUnread
          ? ' WHERE NOT EXISTS (SELECT 1 FROM notifications u ' +
            `WHERE ${unreadAlike(ALIKE_BY[unlessUnread], 'u.')})`
          : ''),
    ),
  );

const withdraw = (withPost: boolean | 'comment') =>
  statement<{
    recipientId: string;
    actorId: string;
    kind: string;
    postId?: string;
    commentId?: string;
  }>(`DELETE FROM notifications WHERE ${unreadAlike(withPost)}`);

const markRead = (upTo: boolean) =>
  statement<{ recipientId: string; readAt: Date; upTo?: string }>(
    'UPDATE notifications SET read_at = :readAt WHERE recipient_id = :recipientId AND read_at IS NULL' +
      (upTo ? ' AND id <= :upTo' : '') +
      ` AND ${visible('notifications.post_id')}`,
  );

/** The statements of notifications. */
export const notificationsSql = {
  page: page(false, false),
  pageAfter: page(false, true),
  unreadPage: page(true, false),
  unreadPageAfter: page(true, true),
  countUnread: statement<{ recipientId: string }, { count: string | number }>(
    'SELECT COUNT(*) AS count FROM notifications n ' +
      `WHERE n.recipient_id = :recipientId AND n.read_at IS NULL AND ${VISIBLE}`,
  ),
  byIds: statement<{ ids: readonly string[] }, NotificationRow>(
    `SELECT ${COLUMNS} FROM notifications n WHERE n.id IN (:...ids) AND ${VISIBLE}`,
  ),
  /** One recipient's visible notification, to check the `upTo` of a mark. */
  ownedById: statement<{ id: string; recipientId: string }, { id: string }>(
    `SELECT n.id FROM notifications n WHERE n.id = :id AND n.recipient_id = :recipientId AND ${VISIBLE}`,
  ),
  /** The notifications of one publication, for the given followers that have one. */
  ofPublication: statement<
    { postId: string; actorId: string; recipientIds: readonly string[] },
    NotificationRow
  >(
    `SELECT ${COLUMNS} FROM notifications n WHERE n.post_id = :postId AND n.actor_id = :actorId ` +
      `AND n.kind = 'FOLLOWEE_PUBLISHED' AND n.recipient_id IN (:...recipientIds) AND ${VISIBLE}`,
  ),
  /** A comment: every one is news. */
  insert: insertOne(false),
  /** The admins, who hear of what concerns the whole blog (a webhook disabled). */
  admins: statement<object, { id: string }>("SELECT u.id FROM users u WHERE u.role = 'admin'"),
  /** A like: one unread notification per liker and post, however often it is undone and redone. */
  insertUnlessUnread: insertOne('post'),
  /** A follow: one unread notification per follower. */
  insertUnlessUnreadNoPost: insertOne('noPost'),
  /** A comment's like: one unread notification per liker and comment. */
  insertUnlessUnreadComment: insertOne('comment'),
  /** The notifications about a comment, which goes (or becomes a tombstone). */
  withdrawAboutComment: statement<{ commentId: string }>(
    'DELETE FROM notifications WHERE comment_id = :commentId',
  ),
  /**
   * One chunk of a publication's notifications: its next {@link FAN_OUT_CHUNK} followers after
   * `after` in id order, one row each, with an id made by the database from the time of the
   * write (`idPrefix`), so that ids order notifications as they were written; `createdAt` stays
   * the publication's time. Fewer rows than `chunk` written: the publication is done.
   */
  insertForFollowers: statement<{
    idPrefix: string;
    actorId: string;
    postId: string;
    createdAt: Date;
    after: string;
    chunk: number;
  }>(
    perDialect(
      (dialect) =>
        'INSERT INTO notifications (id, recipient_id, actor_id, kind, post_id, created_at) ' +
        `SELECT ${rowId(dialect)}, f.follower_id, ${selected(dialect, 'actorId')}, ` +
        `'FOLLOWEE_PUBLISHED', ${selected(dialect, 'postId')}, ` +
        `${selected(dialect, 'createdAt', 'timestamptz')} ` +
        'FROM follows f WHERE f.followee_id = :actorId AND f.follower_id > :after ' +
        'ORDER BY f.follower_id LIMIT :chunk',
    ),
  ),
  /** The last follower of a full chunk: where the publication's next chunk starts after. */
  lastOfChunk: statement<
    { actorId: string; after: string; offset: number },
    { followerId: string }
  >(
    'SELECT f.follower_id AS "followerId" FROM follows f WHERE f.followee_id = :actorId ' +
      'AND f.follower_id > :after ORDER BY f.follower_id LIMIT 1 OFFSET :offset',
  ),
  /** A publication to fan out, written in its own transaction. */
  enqueuePublication: statement<{ postId: string; actorId: string; createdAt: Date }>(
    'INSERT INTO publication_fan_outs (post_id, actor_id, created_at) ' +
      'VALUES (:postId, :actorId, :createdAt)',
  ),
  /** Whether any publication waits, left by this process or another (parked ones aside). */
  anyPendingPublication: statement<object, { id: number | string }>(
    'SELECT id FROM publication_fan_outs WHERE parked_at IS NULL LIMIT 1',
  ),
  /**
   * The next pending publications in turn, at most `limit`, for one fan-out transaction: from
   * `fromId` on, then from the first (the pending rows are few: their order needs no index);
   * parked ones are left alone. On PostgreSQL each is locked, and skipped if another instance
   * holds it, so that no two fan out the same chunk. Its author and post are locked first (`FOR
   * KEY SHARE`, as the notifications' foreign keys would), and a publication whose author or
   * post is being deleted is skipped: the deletion locks them, then the pending row, which this
   * transaction must not hold while it waits for them.
   */
  claimPublications: statement<{ fromId: number | string; limit: number }, PendingPublicationRow>(
    perDialect((dialect) => {
      const columns =
        'f.id, f.post_id AS "postId", f.actor_id AS "actorId", f.created_at AS "createdAt", ' +
        'f.after_follower AS "afterFollower", f.attempts';
      const where =
        'f.parked_at IS NULL ORDER BY CASE WHEN f.id >= :fromId THEN 0 ELSE 1 END, f.id ' +
        'LIMIT :limit';
      return dialect === 'postgres'
        ? `SELECT ${columns} FROM publication_fan_outs f ` +
            'JOIN users a ON a.id = f.actor_id JOIN posts p ON p.id = f.post_id ' +
            `WHERE ${where} FOR KEY SHARE OF a, p SKIP LOCKED FOR UPDATE OF f SKIP LOCKED`
        : `SELECT ${columns} FROM publication_fan_outs f WHERE ${where}`;
    }),
  ),
  /** A withdrawn publication's fan-out, if it is still pending. */
  cancelPublication: statement<{ postId: string }>(
    'DELETE FROM publication_fan_outs WHERE post_id = :postId',
  ),
  /** The unread notifications about a post, of every kind. */
  withdrawAboutPost: statement<{ postId: string }>(
    'DELETE FROM notifications WHERE post_id = :postId AND read_at IS NULL',
  ),
  /** Where the next chunk of a publication starts. */
  advancePublication: statement<{ id: number | string; last: string }>(
    'UPDATE publication_fan_outs SET after_follower = :last WHERE id = :id',
  ),
  /** Publications whose every follower is notified. */
  releasePublications: statement<{ ids: readonly (number | string)[] }>(
    'DELETE FROM publication_fan_outs WHERE id IN (:...ids)',
  ),
  /** A chunk failed: one more attempt counted, and the publication parked at `parkedAt`, if given. */
  failPublication: statement<{ id: number | string; parkedAt: Date | null }>(
    perDialect(
      (dialect) =>
        'UPDATE publication_fan_outs SET attempts = attempts + 1, ' +
        `parked_at = ${selected(dialect, 'parkedAt', 'timestamptz')} WHERE id = :id`,
    ),
  ),
  /**
   * PostgreSQL: a chunk waits at most this long for a row lock (a follower's row held by another
   * transaction, say), then fails and the fan-out moves on.
   */
  lockTimeout: statement(
    { sqlite: 'SELECT 1', postgres: 'SET LOCAL lock_timeout = 2000' },
    { planEachRun: true },
  ),
  /** Undoing a like removes its notification while it is unread; a read one stays. */
  withdraw: withdraw(true),
  /** Undoing a follow, likewise. */
  withdrawNoPost: withdraw(false),
  withdrawComment: withdraw('comment'),
  markAllRead: markRead(false),
  markReadUpTo: markRead(true),
};
