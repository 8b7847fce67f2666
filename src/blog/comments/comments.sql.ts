import {
  commentColumns,
  CommentRow,
  PAGED_COMMENT_COLUMNS,
  PagedCommentRow,
  THREAD_COMMENT_COLUMNS,
  ThreadCommentRow,
} from './comment.rows';
import { KeyCount, statement } from '../common/sql';
import { postColumns, PostRow } from '../posts/post.rows';
import { AUTHOR_COLUMNS, AuthorRow } from '../users/user.rows';

const cols = commentColumns('c');

/**
 * Who reads a list of comments: hidden and held comments are shown to their author and to
 * moderators alone (`moderator` 1), tombstones only in threads. `viewerId` is '' for no one.
 */
export interface ViewerParameters {
  viewerId: string;
  moderator: number;
}

/** A comment of `alias` that the viewer sees in a flat list: no tombstone. */
const shown = (a: string) =>
  `(${a}.status = 'published' OR (${a}.status <> 'deleted' AND ` +
  `(${a}.author_id = :viewerId OR :moderator = 1)))`;

/** A comment of `alias` that the viewer sees in a thread: tombstones keep their threads. */
const inThreads = (a: string) =>
  `(${a}.status IN ('published', 'deleted') OR ${a}.author_id = :viewerId OR :moderator = 1)`;

const LIKED_BY_VIEWER =
  'EXISTS (SELECT 1 FROM comment_likes l WHERE l.comment_id = c.id AND l.user_id = :viewerId)';

/** The first page of each post's comments: ids from the (post, id) index per post, then rows. */
const pagePerPost = (after: boolean) => {
  const ids =
    `SELECT x.id FROM comments x WHERE x.post_id = k.value AND ${shown('x')}` +
    `${after ? ' AND x.id > :after' : ''} ORDER BY x.id LIMIT :first`;
  const posts = 'KEYS(:...postIds) k';
  return statement<
    ViewerParameters & { postIds: readonly string[]; first: number; after?: string },
    CommentRow
  >({
    sqlite: `SELECT ${cols} FROM ${posts} JOIN comments c ON c.id IN (${ids}) ORDER BY c.id`,
    postgres: `SELECT ${cols} FROM ${posts} CROSS JOIN LATERAL (${ids}) t JOIN comments c ON c.id = t.id ORDER BY c.id`,
  });
};

/** How a page of threads is ordered, and where it goes on after its cursor. */
const THREAD_ORDERS = {
  OLDEST: { after: 'x.id > :afterId', order: (a: string) => `${a}.id` },
  NEWEST: { after: 'x.id < :afterId', order: (a: string) => `${a}.id DESC` },
  TOP: {
    after: '(x.likes_count < :afterLikes OR (x.likes_count = :afterLikes AND x.id < :afterId))',
    order: (a: string) => `${a}.likes_count DESC, ${a}.id DESC`,
  },
} as const;

export type ThreadOrder = keyof typeof THREAD_ORDERS;

/** Where a page of threads or replies starts: after the comment `afterId` (with its likes for TOP). */
export type ThreadPageParameters = ViewerParameters & {
  keys: readonly string[];
  first: number;
  afterId?: string;
  afterLikes?: number;
};

/**
 * A page of comments for each key, with each comment's author and the viewer's like: the ids
 * from an index per key (`filter` names the key `k.value`), then their rows. `more` adds to the
 * select list; `counted`, each key's top-level comments counted once (`threadsCount`).
 */
const pagePerKey = (
  filter: string,
  order: string,
  orderBy: (a: string) => string,
  more = '',
  counted = false,
) => {
  const ids =
    `SELECT x.id FROM comments x WHERE ${filter} AND ${inThreads('x')}` +
    `${order ? ` AND ${order}` : ''} ORDER BY ${orderBy('x')} LIMIT :first`;
  const totals = counted
    ? 'WITH totals AS MATERIALIZED (SELECT t.value AS post_id, (SELECT COUNT(*) FROM comments n ' +
      `WHERE n.post_id = t.value AND n.parent_id IS NULL AND ${inThreads('n')}) AS total ` +
      'FROM KEYS(:...keys) t) '
    : '';
  const select =
    `${totals}SELECT ${THREAD_COMMENT_COLUMNS(LIKED_BY_VIEWER)}${more}` +
    (counted ? ', totals.total AS "threadsCount"' : '');
  const rest =
    'JOIN users u ON u.id = c.author_id ' +
    (counted ? 'JOIN totals ON totals.post_id = c.post_id ' : '') +
    `ORDER BY ${orderBy('c')}`;
  return statement<ThreadPageParameters, ThreadCommentRow>({
    sqlite: `${select} FROM KEYS(:...keys) k JOIN comments c ON c.id IN (${ids}) ${rest}`,
    postgres: `${select} FROM KEYS(:...keys) k CROSS JOIN LATERAL (${ids}) t JOIN comments c ON c.id = t.id ${rest}`,
  });
};

const REPLIES_COUNT = `, (SELECT COUNT(*) FROM comments r WHERE r.parent_id = c.id AND ${inThreads('r')}) AS "repliesCount"`;

/**
 * A page of each post's top-level comments, in `order`, with how many replies each has; and,
 * `counted`, how many threads its post has in all (the connection's totalCount, in the same
 * statement, counted once a post).
 */
const threads = (order: ThreadOrder, after: boolean, counted: boolean) =>
  pagePerKey(
    'x.post_id = k.value AND x.parent_id IS NULL',
    after ? THREAD_ORDERS[order].after : '',
    THREAD_ORDERS[order].order,
    REPLIES_COUNT,
    counted,
  );

/** A page of each thread's replies, oldest first. */
const replies = (after: boolean) =>
  pagePerKey('x.parent_id = k.value', after ? 'x.id > :afterId' : '', (a) => `${a}.id`);

/** A row of {@link postWithAuthorAndPage}: the post and its author, or one of its comments. */
type PostOrCommentRow = {
  [K in keyof (PostRow & AuthorRow)]: (PostRow & AuthorRow)[K] | null;
} & PagedCommentRow;

const POST_AND_AUTHOR = `${postColumns('p')}, ${AUTHOR_COLUMNS}`;
const NO_POST = POST_AND_AUTHOR.split(', ')
  .map(() => 'NULL')
  .join(', ');
const NO_COMMENT = PAGED_COMMENT_COLUMNS.replace(/c\.\w+ AS/g, 'NULL AS');

/**
 * A post with its author (the row whose `id` is set), then the first page of its comments (a row
 * each, `comment.*` set), oldest first: what `post` with its `comments` reads in one round trip.
 */
const postWithAuthorAndPage = statement<
  ViewerParameters & { id: string; first: number },
  PostOrCommentRow
>(
  `SELECT ${POST_AND_AUTHOR}, ${NO_COMMENT} ` +
    'FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id = :id ' +
    `UNION ALL SELECT ${NO_POST}, ${PAGED_COMMENT_COLUMNS} FROM comments c ` +
    `WHERE c.id IN (SELECT x.id FROM comments x WHERE x.post_id = :id AND ${shown('x')} ` +
    'ORDER BY x.id LIMIT :first) ORDER BY "comment.id" NULLS FIRST',
);

/** The statements of comments. */
export const commentsSql = {
  byId: statement<{ id: string }, CommentRow>(`SELECT ${cols} FROM comments c WHERE c.id = :id`),
  byIds: statement<{ ids: readonly string[] }, CommentRow>(
    `SELECT ${cols} FROM comments c WHERE c.id IN (:...ids)`,
  ),
  pagesByPosts: pagePerPost(false),
  pagesByPostsAfter: pagePerPost(true),
  threadsOldest: threads('OLDEST', false, false),
  threadsOldestAfter: threads('OLDEST', true, false),
  threadsNewest: threads('NEWEST', false, false),
  threadsNewestAfter: threads('NEWEST', true, false),
  threadsTop: threads('TOP', false, false),
  threadsTopAfter: threads('TOP', true, false),
  threadsOldestCounted: threads('OLDEST', false, true),
  threadsOldestAfterCounted: threads('OLDEST', true, true),
  threadsNewestCounted: threads('NEWEST', false, true),
  threadsNewestAfterCounted: threads('NEWEST', true, true),
  threadsTopCounted: threads('TOP', false, true),
  threadsTopAfterCounted: threads('TOP', true, true),
  replies: replies(false),
  repliesAfter: replies(true),
  postWithAuthorAndPage,
  countByPosts: statement<ViewerParameters & { postIds: readonly string[] }, KeyCount>(
    'SELECT c.post_id AS key, COUNT(*) AS count FROM comments c ' +
      `WHERE c.post_id IN (:...postIds) AND ${shown('c')} GROUP BY c.post_id`,
  ),
  /** The top-level comments of each post that the viewer sees in its threads. */
  countThreadsByPosts: statement<ViewerParameters & { postIds: readonly string[] }, KeyCount>(
    'SELECT c.post_id AS key, COUNT(*) AS count FROM comments c ' +
      `WHERE c.post_id IN (:...postIds) AND c.parent_id IS NULL AND ${inThreads('c')} ` +
      'GROUP BY c.post_id',
  ),
  /** The replies of each thread that the viewer sees. */
  countRepliesByThreads: statement<ViewerParameters & { ids: readonly string[] }, KeyCount>(
    'SELECT c.parent_id AS key, COUNT(*) AS count FROM comments c ' +
      `WHERE c.parent_id IN (:...ids) AND ${inThreads('c')} GROUP BY c.parent_id`,
  ),
  /** The comments among `ids` that `userId` likes. */
  likedBy: statement<{ userId: string; ids: readonly string[] }, { key: string }>(
    'SELECT l.comment_id AS key FROM comment_likes l ' +
      'WHERE l.user_id = :userId AND l.comment_id IN (:...ids)',
  ),
  insert: statement<CommentRow & { createdAt: Date }>(
    'INSERT INTO comments (id, text, text_html, post_id, author_id, created_at, parent_id, ' +
      'in_reply_to_id, status, likes_count) VALUES (:id, :text, :textHtml, :postId, :authorId, ' +
      ':createdAt, :parentId, :inReplyToId, :status, 0)',
  ),
  /** An edit by its author: not of a tombstone. */
  updateText: statement<{ id: string; text: string; textHtml: string; at: Date }>(
    'UPDATE comments SET text = :text, text_html = :textHtml, edited_at = :at ' +
      "WHERE id = :id AND status <> 'deleted'",
  ),
  hasReplies: statement<{ id: string }, { one: number }>(
    'SELECT 1 AS one FROM comments r WHERE r.parent_id = :id LIMIT 1',
  ),
  /** A deleted comment that keeps its thread: no text, no likes. */
  tombstone: statement<{ id: string }>(
    "UPDATE comments SET status = 'deleted', text = '', text_html = '', likes_count = 0 " +
      'WHERE id = :id',
  ),
  /** Hides a published comment; or shows a hidden or held one again. */
  hide: statement<{ id: string }>(
    "UPDATE comments SET status = 'hidden' WHERE id = :id AND status = 'published'",
  ),
  restore: statement<{ id: string }>(
    "UPDATE comments SET status = 'published' WHERE id = :id AND status IN ('hidden', 'held')",
  ),
  forgetLikes: statement<{ id: string }>('DELETE FROM comment_likes WHERE comment_id = :id'),
  delete: statement<{ id: string }>('DELETE FROM comments WHERE id = :id'),
  /** A tombstone whose last reply has gone goes too. */
  deleteBareTombstone: statement<{ id: string }>(
    "DELETE FROM comments WHERE id = :id AND status = 'deleted' AND NOT EXISTS " +
      '(SELECT 1 FROM comments r WHERE r.parent_id = :id)',
  ),
  like: statement<{ commentId: string; userId: string; createdAt: Date }>(
    'INSERT INTO comment_likes (comment_id, user_id, created_at) ' +
      'VALUES (:commentId, :userId, :createdAt) ON CONFLICT DO NOTHING',
  ),
  unlike: statement<{ commentId: string; userId: string }>(
    'DELETE FROM comment_likes WHERE comment_id = :commentId AND user_id = :userId',
  ),
  addLikes: statement<{ id: string; delta: number }>(
    'UPDATE comments SET likes_count = likes_count + :delta WHERE id = :id',
  ),
};
