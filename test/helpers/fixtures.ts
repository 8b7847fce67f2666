import { DataSource } from 'typeorm';

import { Post, User } from '../../src/blog';
import { newId } from '../../src/blog/common/uuid';

/** Inserts `count` users with `postsEach` published posts each, straight into the database. */
export async function insertUsersWithPosts(
  dataSource: DataSource,
  count: number,
  postsEach: number,
) {
  const users: User[] = [];
  const posts: Post[] = [];
  const start = Date.now();
  for (let u = 0; u < count; u++) {
    const id = newId();
    users.push(
      dataSource.getRepository(User).create({
        id,
        name: `Bulk ${id.slice(-8)}`,
        email: `${id}@example.com`,
        handle: `u${id.replace(/-/g, '').slice(-20)}`,
        passwordHash: 'not-a-hash',
      }),
    );
    for (let p = 0; p < postsEach; p++) {
      const at = new Date(start + u * postsEach + p);
      posts.push(
        dataSource.getRepository(Post).create({
          id: newId(),
          title: `Post ${p} of ${id.slice(-8)}`,
          content: 'Bulk content',
          authorId: id,
          createdAt: at,
          updatedAt: at,
          publishedAt: at,
        }),
      );
    }
  }
  await dataSource.transaction(async (manager) => {
    for (let i = 0; i < users.length; i += 200) await manager.insert(User, users.slice(i, i + 200));
    for (let i = 0; i < posts.length; i += 200) await manager.insert(Post, posts.slice(i, i + 200));
  });
  return { users, posts };
}
