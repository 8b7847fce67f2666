import { Logger } from '@nestjs/common';

import { NotificationsService } from './notifications.service';
import { FAN_OUT_BATCH } from './notifications.sql';
import { idPrefixAt, PublicationFanOut } from './publication-fan-out';
import { Sql, SqlRunner, statement } from '../common/sql';
import { newId } from '../common/uuid';
import { BlogEvents, NotificationAddedEvent } from '../events/blog-events';
import { BlogTestingModule, createBlogTestingModule } from '../testing/blog-testing-module';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

describe('PublicationFanOut', () => {
  let blog: BlogTestingModule;
  let sql: Sql;
  let events: BlogEvents;
  let announced: NotificationAddedEvent[];
  let fanOut: PublicationFanOut;
  let notifications: NotificationsService;
  let author: User;
  let followers: User[];

  const count = async (table: string, where = ''): Promise<number> =>
    Number((await blog.dataSource.query(`SELECT COUNT(*) AS n FROM ${table} ${where}`))[0].n);
  const follow = (follower: User, followee: User) =>
    blog.dataSource.query(
      'INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)',
      [follower.id, followee.id, new Date().toISOString()],
    );
  const insertPost = async (runner: SqlRunner, authorId: string, id = newId()): Promise<string> => {
    const now = new Date();
    const { insert } = sql.prepare({
      insert: statement<{ id: string; authorId: string; at: Date }>(
        'INSERT INTO posts (id, title, content, author_id, created_at, updated_at, published_at) ' +
          "VALUES (:id, 'News', 'Body', :authorId, :at, :at, :at)",
      ),
    });
    await runner.run(insert, { id, authorId, at: now });
    return id;
  };
  /** Publishes a post of `by` through the notifications, as PostsService does. */
  const publish = async (by: User = author): Promise<string> => {
    const id = newId();
    await notifications.postPublished({ id, authorId: by.id }, async (runner) => {
      await insertPost(runner, by.id, id);
      return true;
    });
    return id;
  };

  beforeEach(async () => {
    // The fan-out's own timer waits, unless a test lets it run: each test decides when it runs.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    blog = await createBlogTestingModule([UsersService]);
    sql = blog.moduleRef.get(Sql);
    announced = [];
    events = {
      notificationAdded: (event: NotificationAddedEvent) => announced.push(event),
    } as unknown as BlogEvents;
    fanOut = new PublicationFanOut(sql, events);
    notifications = new NotificationsService(sql, events, fanOut);
    author = await blog.signUp();
    followers = [await blog.signUp(), await blog.signUp()];
    for (const follower of followers) await follow(follower, author);
  });

  afterEach(async () => {
    jest.useRealTimers();
    await fanOut.beforeApplicationShutdown();
    await blog.close();
  });

  it("should write one pending row in the publication's transaction, and no notification", async () => {
    const queries: string[] = [];
    const log = jest.spyOn(blog.dataSource.logger, 'logQuery');
    log.mockImplementation((query) => void queries.push(query));
    try {
      await publish();
    } finally {
      log.mockRestore();
    }
    // A continuation runs before any timer: what the fan-out writes cannot be in here yet.
    const writes = queries.filter((query) => /^\s*(INSERT|BEGIN|COMMIT)/i.test(query));
    expect(writes.map((query) => query.split(' (')[0].trim())).toEqual([
      'BEGIN TRANSACTION',
      'INSERT INTO posts',
      'INSERT INTO publication_fan_outs',
      'COMMIT',
    ]);
  });

  it("should notify each follower once, at the publication's time and with ids of that time", async () => {
    const before = new Date();
    const postId = await publish();
    await fanOut.settled();
    expect(await count('publication_fan_outs')).toBe(0);
    const rows: { id: string; recipient_id: string; created_at: string }[] =
      await blog.dataSource.query(
        "SELECT id, recipient_id, created_at FROM notifications WHERE kind = 'FOLLOWEE_PUBLISHED' AND post_id = ?",
        [postId],
      );
    expect(rows.map((row) => row.recipient_id).sort()).toEqual(followers.map((f) => f.id).sort());
    for (const row of rows) {
      const at = new Date(`${row.created_at.replace(' ', 'T')}Z`);
      expect(at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
      expect(row.id.slice(0, 13)).toBe(idPrefixAt(at));
    }
    expect(announced).toEqual([{ kind: 'FOLLOWEE_PUBLISHED', actorId: author.id, postId: postId }]);
    const page = await notifications.page(followers[0], 10, null, false);
    expect(page.notifications.map((n) => [n.kind, n.postId])).toEqual([
      ['FOLLOWEE_PUBLISHED', postId],
    ]);
  });

  it('should fan out on its own, without a read waiting for it', async () => {
    jest.useRealTimers();
    await publish();
    const deadline = Date.now() + 10_000;
    while ((await count('publication_fan_outs')) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await count('notifications')).toBe(2);
    expect(announced).toHaveLength(1);
  });

  it('should let a read wait for the publications this instance committed', async () => {
    const postId = await publish();
    const { notifications: page } = await notifications.page(followers[1], 10, null, false);
    expect(page.map((n) => n.postId)).toEqual([postId]);
    expect(await notifications.countUnread(followers[0])).toBe(1);
  });

  describe('the followers of the moment of the publication', () => {
    const recipientsOf = async (postId: string): Promise<string[]> => {
      await fanOut.settled();
      const rows: { recipient_id: string }[] = await blog.dataSource.query(
        'SELECT recipient_id FROM notifications WHERE post_id = ?',
        [postId],
      );
      return rows.map((row) => row.recipient_id).sort();
    };

    it('should leave out one who follows before the fan-out', async () => {
      const postId = await publish();
      const newcomer = await blog.signUp();
      await notifications.followed(author.id, newcomer.id, async () => {
        await follow(newcomer, author);
        return true;
      });
      expect(await recipientsOf(postId)).toEqual(followers.map((f) => f.id).sort());
    });

    it('should keep one who unfollows before the fan-out', async () => {
      const postId = await publish();
      await notifications.unfollowed(author.id, followers[0].id, async () => {
        await blog.dataSource.query('DELETE FROM follows WHERE follower_id = ?', [followers[0].id]);
        return true;
      });
      expect(await recipientsOf(postId)).toEqual(followers.map((f) => f.id).sort());
    });
  });

  it('should write no pending row when the publication fails or changes nothing', async () => {
    await notifications.postPublished({ id: 'p', authorId: author.id }, async () => false);
    const id = newId();
    const failing = notifications.postPublished({ id, authorId: author.id }, async (runner) => {
      await insertPost(runner, author.id, id);
      throw new Error('the publication failed after its write');
    });
    await expect(failing).rejects.toThrow('the publication failed after its write');
    expect(await count('publication_fan_outs')).toBe(0);
    expect(await count('posts')).toBe(0);
    await fanOut.settled();
    expect(await count('notifications')).toBe(0);
  });

  it(`should take more than ${FAN_OUT_BATCH} publications in batches, all of them`, async () => {
    const transactions = jest.spyOn(sql, 'transaction');
    const posts = FAN_OUT_BATCH + 8;
    for (let i = 0; i < posts; i++) await publish();
    transactions.mockClear();
    await fanOut.settled();
    expect(transactions).toHaveBeenCalledTimes(2);
    expect(jest.getTimerCount()).toBe(0);
    expect(await count('notifications')).toBe(posts * followers.length);
    expect(await count('publication_fan_outs')).toBe(0);
    expect(announced).toHaveLength(posts);
  });

  it('should drop the pending row of a post deleted before its fan-out, and announce nothing', async () => {
    const postId = await publish();
    await blog.dataSource.query('DELETE FROM posts WHERE id = ?', [postId]);
    expect(await count('publication_fan_outs')).toBe(0);
    await fanOut.settled();
    expect(await count('notifications')).toBe(0);
    expect(announced).toEqual([]);
  });

  it('should clear the pending row of an author with no followers, announcing nothing', async () => {
    const loner = await blog.signUp();
    await publish(loner);
    await fanOut.settled();
    expect(await count('publication_fan_outs')).toBe(0);
    expect(await count('notifications')).toBe(0);
    expect(announced).toEqual([]);
  });

  it('should keep the rows pending when the fan-out fails, and fan them out at the next try', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await publish();
    const transaction = jest
      .spyOn(sql, 'transaction')
      .mockRejectedValueOnce(new Error('database is locked'));
    try {
      await fanOut.settled();
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('database is locked'));
      expect(await count('publication_fan_outs')).toBe(1);
      expect(await count('notifications')).toBe(0);
      await fanOut.settled();
      expect(await count('publication_fan_outs')).toBe(0);
      expect(await count('notifications')).toBe(2);
    } finally {
      transaction.mockRestore();
      warn.mockRestore();
    }
  });

  it('should fan out at start what a stopped process left pending', async () => {
    const postId = await insertPost(sql, author.id);
    const createdAt = new Date('2026-11-28T09:00:00.000Z');
    await blog.dataSource.query(
      'INSERT INTO publication_fan_outs (post_id, actor_id, created_at) VALUES (?, ?, ?)',
      [postId, author.id, '2026-11-28 09:00:00.000'],
    );
    const restarted = new PublicationFanOut(sql, events);
    await restarted.onApplicationBootstrap();
    const rows: { id: string }[] = await blog.dataSource.query(
      'SELECT id FROM notifications WHERE post_id = ?',
      [postId],
    );
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.id.startsWith(idPrefixAt(createdAt)))).toBe(true);
    expect(await count('publication_fan_outs')).toBe(0);
  });

  it('should start, with a warning, on a database whose pending publications it cannot read', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      await blog.dataSource.query('DROP TABLE publication_fan_outs');
      await expect(new PublicationFanOut(sql, events).onApplicationBootstrap()).resolves.toBe(
        undefined,
      );
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('publication_fan_outs'));
    } finally {
      warn.mockRestore();
    }
  });

  it('should fan out what is pending before the application shuts down, and schedule nothing after', async () => {
    await publish();
    await fanOut.beforeApplicationShutdown();
    expect(await count('notifications')).toBe(2);
    await publish();
    jest.runOnlyPendingTimers();
    await fanOut.settled();
    expect(await count('publication_fan_outs')).toBe(1);
  });
});
