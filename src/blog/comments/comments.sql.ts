import { commentColumns, CommentRow } from './comment.rows';
import { KeyCount, statement } from '../common/sql';

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

/** The statements of comments. */
export const commentsSql = {
  byId: statement<{ id: string }, CommentRow>(`SELECT ${cols} FROM comments c WHERE c.id = :id`),
  byIds: statement<{ ids: readonly string[] }, CommentRow>(
    `SELECT ${cols} FROM comments c WHERE c.id IN (:...ids)`,
  ),
  pagesByPosts: pagePerPost(false),
  pagesByPostsAfter: pagePerPost(true),
  countByPosts: statement<{ postIds: readonly string[] }, KeyCount>(
    'SELECT c.post_id AS key, COUNT(*) AS count FROM comments c ' +
      'WHERE c.post_id IN (:...postIds) GROUP BY c.post_id',
  ),
  insert: statement<CommentRow & { createdAt: Date }>(
    'INSERT INTO comments (id, text, post_id, author_id, created_at) ' +
      'VALUES (:id, :text, :postId, :authorId, :createdAt)',
  ),
  delete: statement<{ id: string }>('DELETE FROM comments WHERE id = :id'),
};
