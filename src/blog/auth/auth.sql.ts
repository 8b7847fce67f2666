import { statement } from '../common/sql';

/** The posts of the user being deleted, for the rows that hang off them. */
const OWN_POSTS = 'SELECT p.id FROM posts p WHERE p.author_id = :id';

/** The statements that delete an account, in this order, in one transaction. */
export const deleteAccountSql = {
  likes: statement<{ id: string }>(
    `DELETE FROM likes WHERE post_id IN (${OWN_POSTS}) OR user_id = :id`,
  ),
  comments: statement<{ id: string }>(
    `DELETE FROM comments WHERE post_id IN (${OWN_POSTS}) OR author_id = :id`,
  ),
  posts: statement<{ id: string }>('DELETE FROM posts WHERE author_id = :id'),
  follows: statement<{ id: string }>(
    'DELETE FROM follows WHERE follower_id = :id OR followee_id = :id',
  ),
  user: statement<{ id: string }>('DELETE FROM users WHERE id = :id'),
};
