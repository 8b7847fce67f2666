import { commentColumns, CommentRow, PAGED_COMMENT_COLUMNS, PagedCommentRow } from './comment.rows';
import { KeyCount, statement } from '../common/sql';
import { postColumns, PostRow } from '../posts/post.rows';
import { AUTHOR_COLUMNS, AuthorRow } from '../users/user.rows';

const cols = commentColumns('c');

/** The first page of each post's comments: ids from the (post, id) index per post, then rows. */
const pagePerPost = (after: boolean) => {
  const ids =
    'SELECT x.id FROM comments x WHERE x.post_id = k.value' +
    `${after ? ' AND x.id > :after' : ''} ORDER BY x.id LIMIT :first`;
  const posts = 'KEYS(:...postIds) k';
  return statement<{ postIds: readonly string[]; first: number; after?: string }, CommentRow>({
    sqlite: `SELECT ${cols} FROM ${posts} JOIN comments c ON c.id IN (${ids}) ORDER BY c.id`,
    postgres: `SELECT ${cols} FROM ${posts} CROSS JOIN LATERAL (${ids}) t JOIN comments c ON c.id = t.id ORDER BY c.id`,
  });
};

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
const postWithAuthorAndPage = statement<{ id: string; first: number }, PostOrCommentRow>(
  `SELECT ${POST_AND_AUTHOR}, ${NO_COMMENT} ` +
    'FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id = :id ' +
    `UNION ALL SELECT ${NO_POST}, ${PAGED_COMMENT_COLUMNS} FROM comments c ` +
    'WHERE c.id IN (SELECT x.id FROM comments x WHERE x.post_id = :id ORDER BY x.id LIMIT :first) ' +
    'ORDER BY "comment.id" NULLS FIRST',
);

/** The statements of comments. */
export const commentsSql = {
  byId: statement<{ id: string }, CommentRow>(`SELECT ${cols} FROM comments c WHERE c.id = :id`),
  byIds: statement<{ ids: readonly string[] }, CommentRow>(
    `SELECT ${cols} FROM comments c WHERE c.id IN (:...ids)`,
  ),
  pagesByPosts: pagePerPost(false),
  pagesByPostsAfter: pagePerPost(true),
  postWithAuthorAndPage,
  countByPosts: statement<{ postIds: readonly string[] }, KeyCount>(
    'SELECT c.post_id AS key, COUNT(*) AS count FROM comments c ' +
      'WHERE c.post_id IN (:...postIds) GROUP BY c.post_id',
  ),
  insert: statement<CommentRow & { createdAt: Date }>(
    'INSERT INTO comments (id, text, text_html, post_id, author_id, created_at) ' +
      'VALUES (:id, :text, :textHtml, :postId, :authorId, :createdAt)',
  ),
  delete: statement<{ id: string }>('DELETE FROM comments WHERE id = :id'),
};
