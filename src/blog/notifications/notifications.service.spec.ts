import { v7 } from 'uuid';

import { decodeNotificationCursor, encodeNotificationCursor } from './notification-cursor';
import { NotificationKind } from './notification-kind';
import { NotificationsService } from './notifications.service';
import { idPrefixAt, PublicationFanOut } from './publication-fan-out';
import { Sql, SqlRunner } from '../common/sql';
import { newId } from '../common/uuid';
import { BlogEvents, NotificationAddedEvent } from '../events/blog-events';
import { followsSql } from '../follows/follows.sql';
import {
  BlogTestingModule,
  createBlogTestingModule,
  refusalOf,
} from '../testing/blog-testing-module';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

describe('NotificationsService', () => {
  let blog: BlogTestingModule;
  let notifications: NotificationsService;
  let announced: NotificationAddedEvent[];
  let follow: (sql: SqlRunner, followerId: string, followeeId: string) => Promise<number>;
  let ann: User;
  let ben: User;

  const count = async (table: string): Promise<number> =>
    Number((await blog.dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
  const followed = (followeeId: string, followerId: string) => ({
    kind: NotificationKind.FOLLOWED as const,
    recipientId: followeeId,
    actorId: followerId,
  });

  beforeEach(async () => {
    blog = await createBlogTestingModule([UsersService]);
    const sql = blog.moduleRef.get(Sql);
    announced = [];
    const events = { notificationAdded: (event: NotificationAddedEvent) => announced.push(event) };
    const blogEvents = events as unknown as BlogEvents;
    notifications = new NotificationsService(
      sql,
      blogEvents,
      new PublicationFanOut(sql, blogEvents),
    );
    const statements = sql.prepare(followsSql);
    follow = (runner, followerId, followeeId) =>
      runner.run(statements.follow, { followerId, followeeId, createdAt: new Date() });
    [ann, ben] = [await blog.signUp(), await blog.signUp()];
  });

  afterEach(() => blog.close());

  it('should write the action and its notification together, and announce it after', async () => {
    const changed = await notifications.raising(followed(ann.id, ben.id), async (sql) => {
      expect(announced).toEqual([]);
      return (await follow(sql, ben.id, ann.id)) > 0;
    });
    expect(changed).toBe(true);
    expect(await count('notifications')).toBe(1);
    const [
      {
        notifications: [raised],
      },
    ] = [await notifications.page(ann, 10, null, false)];
    expect(announced).toEqual([{ recipientId: ann.id, notificationId: raised.id }]);
    expect(raised).toMatchObject({ kind: 'FOLLOWED', actorId: ben.id, postId: null, read: false });
  });

  it('should raise nothing when the action changes nothing or fails', async () => {
    expect(await notifications.raising(followed(ann.id, ben.id), async () => false)).toBe(false);
    const failing = notifications.raising(followed(ann.id, ben.id), async (sql) => {
      await follow(sql, ben.id, ann.id);
      throw new Error('the action failed after its write');
    });
    await expect(failing).rejects.toThrow('the action failed after its write');
    expect(await count('follows')).toBe(0);
    expect(await count('notifications')).toBe(0);
    expect(announced).toEqual([]);
  });

  it('should undo the action when its notification cannot be written: they share one transaction', async () => {
    const gone = newId();
    const raising = notifications.raising(followed(gone, ben.id), async (sql) => {
      return (await follow(sql, ben.id, ann.id)) > 0;
    });
    await expect(raising).rejects.toThrow();
    expect(await count('follows')).toBe(0);
    expect(announced).toEqual([]);
  });

  it('should run your own action without raising or opening a transaction', async () => {
    let runner: SqlRunner | undefined;
    await notifications.raising(followed(ann.id, ann.id), async (sql) => {
      runner = sql;
      return true;
    });
    expect(runner).toBe(blog.moduleRef.get(Sql));
    expect(await count('notifications')).toBe(0);
  });

  it('should withdraw only the unread notification of an undone action', async () => {
    const followOnce = async (sql: SqlRunner) => (await follow(sql, ben.id, ann.id)) > 0;
    await notifications.raising(followed(ann.id, ben.id), followOnce);
    await notifications.markRead(ann, null);
    await blog.dataSource.query('DELETE FROM follows');
    await notifications.raising(followed(ann.id, ben.id), followOnce);
    await blog.dataSource.query('DELETE FROM follows');
    const undone = await notifications.withdrawing(followed(ann.id, ben.id), async () => true);
    expect(undone).toBe(true);
    const left = (await notifications.page(ann, 10, null, false)).notifications;
    expect(left.map((n) => n.read)).toEqual([true]);
  });

  it('should answer UNAUTHENTICATED to an anonymous viewer, and NOT_FOUND for an upTo not theirs', async () => {
    expect(await refusalOf(notifications.page(null, 10, null, false))).toEqual({
      code: 'UNAUTHENTICATED',
    });
    expect(await refusalOf(notifications.countUnread(null))).toEqual({ code: 'UNAUTHENTICATED' });
    expect(await refusalOf(notifications.markRead(ann, newId()))).toEqual({ code: 'NOT_FOUND' });
  });
});

describe('notification ids and cursors', () => {
  it('should begin ids made by the database with the time prefix of a UUIDv7 of that moment', () => {
    const at = new Date('2026-11-24T11:00:00.123Z');
    expect(v7({ msecs: at.getTime() }).slice(0, 13)).toBe(idPrefixAt(at));
  });

  it('should read back the id of a cursor, and refuse anything else with BAD_USER_INPUT', async () => {
    const id = newId();
    expect(decodeNotificationCursor(encodeNotificationCursor(id))).toBe(id);
    const notACursor = Buffer.from(`post:${id}`).toString('base64url');
    for (const cursor of [notACursor, 'garbage', '']) {
      expect(
        await refusalOf(Promise.resolve().then(() => decodeNotificationCursor(cursor))),
      ).toEqual({
        code: 'BAD_USER_INPUT',
        field: 'after',
      });
    }
  });
});
