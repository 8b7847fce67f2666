import { KeyCount, statement } from '../common/sql';

/** The statements of likes; a like is a (post, user) row, so liking twice leaves one. */
export const likesSql = {
  like: statement<{ postId: string; userId: string; createdAt: Date }>(
    'INSERT INTO likes (post_id, user_id, created_at) VALUES (:postId, :userId, :createdAt) ' +
      'ON CONFLICT DO NOTHING',
  ),
  unlike: statement<{ postId: string; userId: string }>(
    'DELETE FROM likes WHERE post_id = :postId AND user_id = :userId',
  ),
  countByPosts: statement<{ postIds: readonly string[] }, KeyCount>(
    'SELECT l.post_id AS key, COUNT(*) AS count FROM likes l ' +
      'WHERE l.post_id IN (:...postIds) GROUP BY l.post_id',
  ),
  likedBy: statement<{ userId: string; postIds: readonly string[] }, { key: string }>(
    'SELECT l.post_id AS key FROM likes l WHERE l.user_id = :userId AND l.post_id IN (:...postIds)',
  ),
};
