import { Logger } from '@nestjs/common';

import { NotificationsService } from './notifications.service';
import { FAN_OUT_CHUNK } from './notifications.sql';
import { FAN_OUT_MAX_ATTEMPTS, idPrefixAt, PublicationFanOut } from './publication-fan-out';
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
  /** `count` more followers of `followee`, copied from one in SQL (signing up each is slow). */
  const addFollowers = async (followee: User, count: number): Promise<string[]> => {
    const columns: { name: string }[] = await blog.dataSource.query('PRAGMA table_info(users)');
    const copied = columns
      .map(({ name }) => name)
      .filter((name) => !['id', 'email', 'handle'].includes(name));
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = newId();
      ids.push(id);
      await blog.dataSource.query(
        `INSERT INTO users (id, email, handle, ${copied.join(', ')}) ` +
          `SELECT ?, ?, ?, ${copied.join(', ')} FROM users WHERE id = ?`,
        [id, `copy${i}-${id}@example.com`, `copy${i}_${id.slice(-8)}`, followers[0].id],
      );
      await blog.dataSource.query(
        'INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)',
        [id, followee.id, new Date().toISOString()],
      );
    }
    return ids;
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

  it("should notify each follower once, at the publication's time, with ids of the time of the write", async () => {
    const before = new Date();
    const postId = await publish();
    jest.setSystemTime(before.getTime() + 5_000);
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
      expect(at.getTime()).toBe(before.getTime());
      expect(row.id.slice(0, 13)).toBe(idPrefixAt(new Date(before.getTime() + 5_000)));
    }
    const range = { after: '' };
    expect(announced).toEqual([
      { kind: 'FOLLOWEE_PUBLISHED', actorId: author.id, postId: postId, followers: range },
    ]);
    const page = await notifications.page(followers[0], 10, null, false);
    expect(page.notifications.map((n) => [n.kind, n.postId])).toEqual([
      ['FOLLOWEE_PUBLISHED', postId],
    ]);
  });

  it('should never mark read a notification written after the one the reader saw', async () => {
    const [reader] = followers;
    const fan = await blog.signUp();
    // A publication committed first, whose fan-out is late (held up behind a lock, say).
    const postId = await insertPost(sql, author.id);
    jest.setSystemTime(Date.now() + 1_000);
    // The reader is followed, and sees that notification as their newest.
    await notifications.followed(reader.id, fan.id, async () => {
      await follow(fan, reader);
      return true;
    });
    const [seen] = (await notifications.page(reader, 10, null, false)).notifications;
    expect(seen.kind).toBe('FOLLOWED');
    // Only now is the publication fanned out: its row is written after the reader looked.
    await blog.dataSource.query(
      'INSERT INTO publication_fan_outs (post_id, actor_id, created_at) VALUES (?, ?, ?)',
      [
        postId,
        author.id,
        new Date(Date.now() - 1_000).toISOString().replace('T', ' ').slice(0, 23),
      ],
    );
    jest.setSystemTime(Date.now() + 1_000);
    fanOut.published();
    await fanOut.settled();
    expect(await notifications.markRead(reader, seen.id)).toBe(1);
    expect(await notifications.countUnread(reader)).toBe(1);
    const [late] = (await notifications.page(reader, 1, null, true)).notifications;
    expect([late.kind, late.postId, late.id > seen.id]).toEqual([
      'FOLLOWEE_PUBLISHED',
      postId,
      true,
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

  it(`should fan out in chunks of ${FAN_OUT_CHUNK} followers, none of its statements growing with them`, async () => {
    const many = await addFollowers(author, FAN_OUT_CHUNK + 20);
    const everyone = [...followers.map((f) => f.id), ...many].sort();
    const postId = await publish();
    const run = jest.spyOn(sql, 'transaction');
    await fanOut.settled();
    // Each chunk has a transaction of its own: two, plus the claim that finds nothing left.
    expect(run.mock.calls.length).toBeGreaterThanOrEqual(2);
    run.mockRestore();
    const rows: { recipient_id: string }[] = await blog.dataSource.query(
      'SELECT recipient_id FROM notifications WHERE post_id = ? ORDER BY recipient_id',
      [postId],
    );
    expect(rows.map((row) => row.recipient_id)).toEqual(everyone);
    expect(announced).toEqual([
      {
        kind: 'FOLLOWEE_PUBLISHED',
        actorId: author.id,
        postId,
        followers: { after: '', last: everyone[FAN_OUT_CHUNK - 1] },
      },
      {
        kind: 'FOLLOWEE_PUBLISHED',
        actorId: author.id,
        postId,
        followers: { after: everyone[FAN_OUT_CHUNK - 1] },
      },
    ]);
    expect(await count('publication_fan_outs')).toBe(0);
  });

  it('should give each pending publication a chunk in turn, so that a large one holds back no other', async () => {
    await addFollowers(author, FAN_OUT_CHUNK * 2);
    const loner = await blog.signUp();
    const [fanOfLoner] = await addFollowers(loner, 1);
    const large = await publish();
    const small = await publish(loner);
    const order: string[] = [];
    events.notificationAdded = (event: NotificationAddedEvent) =>
      void order.push('postId' in event ? event.postId : '');
    await fanOut.settled();
    // The small publication's only chunk comes right after the large one's first.
    expect(order).toEqual([large, small, large, large]);
    expect(await count('notifications', `WHERE recipient_id = '${fanOfLoner}'`)).toBe(1);
  });

  it('should move on from a publication that fails, and park it after its last attempt', async () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const loner = await blog.signUp();
    await addFollowers(loner, 1);
    const jammed = await publish();
    const other = await publish(loner);
    const chunk = (fanOut as unknown as { fanOutChunk: (...a: unknown[]) => unknown }).fanOutChunk;
    const spy = jest
      .spyOn(
        fanOut as unknown as { fanOutChunk: (sql: SqlRunner, row: { postId: string }) => unknown },
        'fanOutChunk',
      )
      .mockImplementation(function (this: unknown, runner, row) {
        if (row.postId === jammed)
          return Promise.reject(new Error('canceling statement due to lock timeout'));
        return chunk.call(fanOut, runner, row);
      });
    try {
      await fanOut.settled();
      expect(await count('notifications', `WHERE post_id = '${other}'`)).toBe(1);
      expect(await count('notifications', `WHERE post_id = '${jammed}'`)).toBe(0);
      // A reader does not wait on a fan-out that fails: its next retry is a timer away.
      await notifications.countUnread(followers[0]);
      for (let attempt = 2; attempt <= FAN_OUT_MAX_ATTEMPTS; attempt++) {
        jest.runOnlyPendingTimers();
        await fanOut.settled();
      }
      const [row] = await blog.dataSource.query(
        'SELECT attempts, parked_at FROM publication_fan_outs WHERE post_id = ?',
        [jammed],
      );
      expect(row.attempts).toBe(FAN_OUT_MAX_ATTEMPTS);
      expect(row.parked_at).not.toBeNull();
      expect(fanOut.parked).toBe(1);
      expect(error).toHaveBeenCalledWith(expect.stringContaining('is parked'));
      // Parked, it is tried no more.
      jest.runOnlyPendingTimers();
      await fanOut.settled();
      // Its first try shared a transaction with the other publication: that failure is not
      // counted, and the run went on a publication a transaction.
      expect(spy.mock.calls.filter(([, r]) => r.postId === jammed)).toHaveLength(
        FAN_OUT_MAX_ATTEMPTS + 1,
      );
    } finally {
      spy.mockRestore();
      error.mockRestore();
      warn.mockRestore();
    }
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

  it('should fan out at start what a stopped process left pending, from where it stopped', async () => {
    const postId = await insertPost(sql, author.id);
    const [first, second] = followers.map((f) => f.id).sort();
    await blog.dataSource.query(
      'INSERT INTO publication_fan_outs (post_id, actor_id, created_at, after_follower) VALUES (?, ?, ?, ?)',
      [postId, author.id, '2026-11-28 09:00:00.000', first],
    );
    const restarted = new PublicationFanOut(sql, events);
    await restarted.onApplicationBootstrap();
    await restarted.settled();
    const rows: { recipient_id: string; created_at: string }[] = await blog.dataSource.query(
      'SELECT recipient_id, created_at FROM notifications WHERE post_id = ?',
      [postId],
    );
    expect(rows).toEqual([{ recipient_id: second, created_at: '2026-11-28 09:00:00.000' }]);
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

  it('should end the chunk under way at shutdown, leave the rest pending, and schedule nothing after', async () => {
    await publish();
    await fanOut.beforeApplicationShutdown();
    await publish();
    jest.runOnlyPendingTimers();
    await fanOut.settled();
    expect(await count('publication_fan_outs')).toBe(2);
    expect(await count('notifications')).toBe(0);
  });
});
