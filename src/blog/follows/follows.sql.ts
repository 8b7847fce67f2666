import { KeyCount, statement } from '../common/sql';

const count = (key: 'followee_id' | 'follower_id') =>
  statement<{ userIds: readonly string[] }, KeyCount>(
    `SELECT f.${key} AS key, COUNT(*) AS count FROM follows f ` +
      `WHERE f.${key} IN (:...userIds) GROUP BY f.${key}`,
  );

/** The statements of follows; a follow is a (follower, followee) row, so following twice leaves one. */
export const followsSql = {
  follow: statement<{ followerId: string; followeeId: string; createdAt: Date }>(
    'INSERT INTO follows (follower_id, followee_id, created_at) ' +
      'VALUES (:followerId, :followeeId, :createdAt) ON CONFLICT DO NOTHING',
  ),
  unfollow: statement<{ followerId: string; followeeId: string }>(
    'DELETE FROM follows WHERE follower_id = :followerId AND followee_id = :followeeId',
  ),
  countFollowers: count('followee_id'),
  countFollowing: count('follower_id'),
  followedBy: statement<{ followerId: string; userIds: readonly string[] }, { key: string }>(
    'SELECT f.followee_id AS key FROM follows f ' +
      'WHERE f.follower_id = :followerId AND f.followee_id IN (:...userIds)',
  ),
  followsAnyone: statement<{ followerId: string }, { yes: number }>(
    'SELECT 1 AS yes FROM follows f WHERE f.follower_id = :followerId LIMIT 1',
  ),
};
