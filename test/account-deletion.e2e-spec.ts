import { ADD_COMMENT, CREATE_POST, FOLLOW_USER, LIKE_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';

const DELETE_ACCOUNT = `mutation ($password: String!) { deleteAccount(password: $password) }`;
const DELETE_POST = `mutation ($id: ID!) { deletePost(id: $id) }`;

/** Every row of the blog's tables, by key, sorted: what a deletion is compared on. */
interface Rows {
  users: string[];
  posts: { id: string; author: string }[];
  comments: { id: string; post: string; author: string }[];
  likes: { post: string; user: string }[];
  follows: { follower: string; followee: string }[];
}

/**
 * Deleting an account is deleting the user's row: the schema's ON DELETE CASCADE removes their
 * posts (with those posts' comments and likes), their comments, likes and follows both ways, on
 * SQLite and PostgreSQL alike, and nothing else.
 */
describe('Account and post deletion by the cascades (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function rows(): Promise<Rows> {
    const query = (sql: string) => t.dataSource.query(sql) as Promise<any[]>;
    return {
      users: (await query('SELECT id FROM users ORDER BY id')).map((row) => row.id),
      posts: await query('SELECT id, author_id AS author FROM posts ORDER BY id'),
      comments: await query(
        'SELECT id, post_id AS post, author_id AS author FROM comments ORDER BY id',
      ),
      likes: await query('SELECT post_id AS post, user_id AS "user" FROM likes ORDER BY 1, 2'),
      follows: await query(
        'SELECT follower_id AS follower, followee_id AS followee FROM follows ORDER BY 1, 2',
      ),
    };
  }

  /** `before` without the user `id` and everything that hangs off them or their posts. */
  function without(before: Rows, id: string): Rows {
    const theirPosts = new Set(before.posts.filter((p) => p.author === id).map((p) => p.id));
    return {
      users: before.users.filter((user) => user !== id),
      posts: before.posts.filter((p) => p.author !== id),
      comments: before.comments.filter((c) => c.author !== id && !theirPosts.has(c.post)),
      likes: before.likes.filter((l) => l.user !== id && !theirPosts.has(l.post)),
      follows: before.follows.filter((f) => f.follower !== id && f.followee !== id),
    };
  }

  async function post(author: TestUser, title: string): Promise<string> {
    const { createPost } = await t.data<{ createPost: { id: string } }>(
      CREATE_POST,
      { input: { title, content: 'x' } },
      author.token,
    );
    return createPost.id;
  }

  /**
   * The leaving user with two posts that others commented and liked, their own comments and
   * likes on a friend's post, follows both ways; and rows between the others that must stay.
   */
  async function aWorldAround(): Promise<{ leaving: TestUser; friend: TestUser }> {
    const [leaving, friend, other] = [await t.signUp(), await t.signUp(), await t.signUp()];
    const leavingPosts = [await post(leaving, 'Leaving 1'), await post(leaving, 'Leaving 2')];
    const friendsPost = await post(friend, "Friend's");
    for (const postId of leavingPosts) {
      await t.data(ADD_COMMENT, { postId, text: 'by friend' }, friend.token);
      await t.data(ADD_COMMENT, { postId, text: 'by other' }, other.token);
      await t.data(LIKE_POST, { postId }, other.token);
    }
    await t.data(ADD_COMMENT, { postId: leavingPosts[0], text: 'by themselves' }, leaving.token);
    await t.data(ADD_COMMENT, { postId: friendsPost, text: 'by leaving' }, leaving.token);
    await t.data(LIKE_POST, { postId: friendsPost }, leaving.token);
    await t.data(ADD_COMMENT, { postId: friendsPost, text: 'by other' }, other.token);
    await t.data(LIKE_POST, { postId: friendsPost }, other.token);
    await t.data(FOLLOW_USER, { userId: friend.user.id }, leaving.token);
    await t.data(FOLLOW_USER, { userId: leaving.user.id }, friend.token);
    await t.data(FOLLOW_USER, { userId: leaving.user.id }, other.token);
    await t.data(FOLLOW_USER, { userId: friend.user.id }, other.token);
    return { leaving, friend };
  }

  it('should enforce foreign keys that cascade on delete, on this database', async () => {
    const tables = ['posts', 'comments', 'likes', 'follows'];
    // A reply forgets the comment it answered when that one goes (SET NULL); every other key
    // takes its rows with it.
    const expected = [...Array(8).fill('CASCADE'), 'SET NULL'];
    if (t.dataSource.options.type === 'postgres') {
      const rules: { delete_rule: string }[] = await t.dataSource.query(
        `SELECT rc.delete_rule FROM information_schema.referential_constraints rc
         JOIN information_schema.table_constraints tc ON tc.constraint_name = rc.constraint_name
         WHERE tc.table_name IN ('posts', 'comments', 'likes', 'follows')`,
      );
      expect(rules.map((rule) => rule.delete_rule).sort()).toEqual(expected);
      return;
    }
    expect(await t.dataSource.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
    const keys: { on_delete: string }[] = [];
    for (const table of tables) {
      keys.push(...(await t.dataSource.query(`PRAGMA foreign_key_list(${table})`)));
    }
    expect(keys.map((key) => key.on_delete).sort()).toEqual(expected);
  });

  it("should remove exactly the user's rows and their posts' when only the user row is deleted", async () => {
    const { leaving } = await aWorldAround();
    const before = await rows();

    await t.dataSource
      .createQueryBuilder()
      .delete()
      .from('users')
      .where('id = :id', { id: leaving.user.id })
      .execute();

    expect(await rows()).toEqual(without(before, leaving.user.id));
  });

  it('should leave no orphan row and keep every row of the others after deleteAccount', async () => {
    const { leaving, friend } = await aWorldAround();
    const before = await rows();

    const { deleteAccount } = await t.data<{ deleteAccount: string }>(
      DELETE_ACCOUNT,
      { password: leaving.password },
      leaving.token,
    );

    expect(deleteAccount).toBe(leaving.user.id);
    const after = await rows();
    expect(after).toEqual(without(before, leaving.user.id));
    expect(after.users).toContain(friend.user.id);
    const users = new Set(after.users);
    const posts = new Set(after.posts.map((p) => p.id));
    expect(after.posts.filter((p) => !users.has(p.author))).toEqual([]);
    expect(after.comments.filter((c) => !users.has(c.author) || !posts.has(c.post))).toEqual([]);
    expect(after.likes.filter((l) => !users.has(l.user) || !posts.has(l.post))).toEqual([]);
    expect(after.follows.filter((f) => !users.has(f.follower) || !users.has(f.followee))).toEqual(
      [],
    );
  });

  it("should remove a deleted post's comments and likes, and nothing else", async () => {
    const { leaving } = await aWorldAround();
    const before = await rows();
    const postId = before.posts.find((p) => p.author === leaving.user.id)!.id;

    const { deletePost } = await t.data<{ deletePost: string }>(
      DELETE_POST,
      { id: postId },
      leaving.token,
    );

    expect(deletePost).toBe(postId);
    expect(await rows()).toEqual({
      ...before,
      posts: before.posts.filter((p) => p.id !== postId),
      comments: before.comments.filter((c) => c.post !== postId),
      likes: before.likes.filter((l) => l.post !== postId),
    });
  });
});
