import { v7 } from 'uuid';

import { Post, Role, User } from '../src/blog';
import { testDatabase } from './helpers/databases';
import {
  ADD_COMMENT,
  CREATE_POST,
  DELETE_COMMENT,
  FOLLOW_USER,
  LIKE_POST,
  PUBLISH_POST,
  UNFOLLOW_USER,
  UNLIKE_POST,
} from './helpers/documents';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';
import { collect, settle, wsClient } from './helpers/ws-client';
import { Sql } from '../src/blog/common/sql';
import { translate } from '../src/blog/common/sql/translate';
import { BlogEvent, BlogEvents } from '../src/blog/events/blog-events';
import { Follow } from '../src/blog/follows/follow.entity';
import { Notification } from '../src/blog/notifications/notification.entity';
import { FAN_OUT_CHUNK, notificationsSql } from '../src/blog/notifications/notifications.sql';
import { PublicationFanOut } from '../src/blog/notifications/publication-fan-out';

const NOTIFICATIONS = `query ($first: Int, $after: String, $unreadOnly: Boolean) {
  notifications(first: $first, after: $after, unreadOnly: $unreadOnly) {
    edges { cursor node { id kind read createdAt actor { id name } post { id title } } }
    pageInfo { hasNextPage endCursor }
  }
  unreadNotificationsCount
}`;
const UNREAD_COUNT = `{ unreadNotificationsCount }`;
const MARK_READ = `mutation ($upTo: ID) { markNotificationsRead(upTo: $upTo) }`;
const DELETE_ACCOUNT = `mutation ($password: String!) { deleteAccount(password: $password) }`;
const NOTIFICATION_ADDED = `subscription { notificationAdded {
  id kind read actor { id name } post { id title }
} }`;

interface Node {
  id: string;
  kind: string;
  read: boolean;
  createdAt: string;
  actor: { id: string; name: string };
  post: { id: string; title: string } | null;
}
interface Page {
  edges: { cursor: string; node: Node }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const codeOf = (response: GraphQLResponse) => response.errors?.[0]?.extensions?.code;

describe('Notifications (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  const createPost = async (by: TestUser, title: string, publish = true): Promise<string> =>
    (await t.data(CREATE_POST, { input: { title, content: `About ${title}`, publish } }, by.token))
      .createPost.id;
  const page = async (
    user: TestUser,
    variables: { first?: number; after?: string; unreadOnly?: boolean } = {},
  ): Promise<Page & { unread: number }> => {
    const data = await t.data(NOTIFICATIONS, { first: 100, ...variables }, user.token);
    return { ...data.notifications, unread: data.unreadNotificationsCount };
  };
  /** The viewer's notifications, newest first, as `KIND actor post-title`. */
  const summary = async (user: TestUser, unreadOnly = false): Promise<string[]> =>
    (await page(user, { unreadOnly })).edges.map(
      ({ node }) => `${node.kind} ${node.actor.name}${node.post ? ` ${node.post.title}` : ''}`,
    );
  const unreadCount = async (user: TestUser): Promise<number> =>
    (await t.data(UNREAD_COUNT, {}, user.token)).unreadNotificationsCount;
  /** Counted once the publications' notifications are written, as every read waits for them. */
  const rows = async (where: { recipientId?: string; actorId?: string; postId?: string }) => {
    await t.fannedOut();
    return t.dataSource.getRepository(Notification).countBy(where);
  };
  const follow = (by: TestUser, whom: TestUser) =>
    t.data(FOLLOW_USER, { userId: whom.user.id }, by.token);

  describe('what raises one, and for whom', () => {
    it('should tell a user who follows them, and no one else', async () => {
      const [ann, ben, cat] = [await t.signUp(), await t.signUp(), await t.signUp()];
      await follow(ben, ann);
      expect(await summary(ann)).toEqual([`FOLLOWED ${ben.user.name}`]);
      expect(await summary(ben)).toEqual([]);
      expect(await summary(cat)).toEqual([]);
      const [{ node }] = (await page(ann)).edges;
      expect(node).toMatchObject({ read: false, post: null, actor: { id: ben.user.id } });
      expect(Date.parse(node.createdAt)).not.toBeNaN();
    });

    it("should tell a post's author of a like and of each comment, and no one else", async () => {
      const [author, fan, other] = [await t.signUp(), await t.signUp(), await t.signUp()];
      const postId = await createPost(author, 'Liked');
      await t.data(LIKE_POST, { postId }, fan.token);
      await t.data(ADD_COMMENT, { postId, text: 'One' }, fan.token);
      await t.data(ADD_COMMENT, { postId, text: 'Two' }, other.token);
      expect(await summary(author)).toEqual([
        `POST_COMMENTED ${other.user.name} Liked`,
        `POST_COMMENTED ${fan.user.name} Liked`,
        `POST_LIKED ${fan.user.name} Liked`,
      ]);
      expect(await summary(fan)).toEqual([]);
      expect(await summary(other)).toEqual([]);
    });

    it('should raise none for your own like or comment', async () => {
      const author = await t.signUp();
      const postId = await createPost(author, 'Mine');
      await t.data(LIKE_POST, { postId }, author.token);
      await t.data(ADD_COMMENT, { postId, text: 'Me again' }, author.token);
      expect(await summary(author)).toEqual([]);
      expect(await rows({ actorId: author.user.id })).toBe(0);
    });

    it('should tell every follower of an author who publishes, on createPost and on publishPost', async () => {
      const [author, first, second, stranger] = [
        await t.signUp(),
        await t.signUp(),
        await t.signUp(),
        await t.signUp(),
      ];
      await follow(first, author);
      await follow(second, author);
      await createPost(author, 'At once');
      const draftId = await createPost(author, 'Later', false);
      expect(await summary(first)).toEqual([`FOLLOWEE_PUBLISHED ${author.user.name} At once`]);
      await t.data(PUBLISH_POST, { id: draftId }, author.token);
      for (const follower of [first, second]) {
        expect(await summary(follower)).toEqual([
          `FOLLOWEE_PUBLISHED ${author.user.name} Later`,
          `FOLLOWEE_PUBLISHED ${author.user.name} At once`,
        ]);
      }
      expect(await summary(stranger)).toEqual([]);
      expect(await summary(author)).toEqual([
        `FOLLOWED ${second.user.name}`,
        `FOLLOWED ${first.user.name}`,
      ]);
    });

    it('should raise none for a draft, nor for publishing a published post again', async () => {
      const [author, follower] = [await t.signUp(), await t.signUp()];
      await follow(follower, author);
      const draftId = await createPost(author, 'Quiet draft', false);
      expect(await rows({ postId: draftId })).toBe(0);
      await t.data(PUBLISH_POST, { id: draftId }, author.token);
      await t.data(PUBLISH_POST, { id: draftId }, author.token);
      expect(await rows({ postId: draftId })).toBe(1);
    });

    it('should raise none for an action that fails or changes nothing', async () => {
      const [author, fan] = [await t.signUp(), await t.signUp()];
      const postId = await createPost(author, 'Twice liked');
      const draftId = await createPost(author, 'Unlikeable', false);
      await t.data(LIKE_POST, { postId }, fan.token);
      await t.data(LIKE_POST, { postId }, fan.token);
      await follow(fan, author);
      await follow(fan, author);
      expect(codeOf(await t.gql(LIKE_POST, { postId: draftId }, fan.token))).toBe('NOT_FOUND');
      expect(await summary(author)).toEqual([
        `FOLLOWED ${fan.user.name}`,
        `POST_LIKED ${fan.user.name} Twice liked`,
      ]);
    });
  });

  describe('undoing', () => {
    it('should remove the unread notification of a like or a follow that is undone', async () => {
      const [author, fan] = [await t.signUp(), await t.signUp()];
      const postId = await createPost(author, 'Fickle');
      await t.data(LIKE_POST, { postId }, fan.token);
      await follow(fan, author);
      expect(await unreadCount(author)).toBe(2);
      await t.data(UNLIKE_POST, { postId }, fan.token);
      await t.data(UNFOLLOW_USER, { userId: author.user.id }, fan.token);
      expect(await summary(author)).toEqual([]);
      expect(await unreadCount(author)).toBe(0);
    });

    it('should keep a read one, and raise a fresh one for the next like', async () => {
      const [author, fan] = [await t.signUp(), await t.signUp()];
      const postId = await createPost(author, 'Read it');
      await t.data(LIKE_POST, { postId }, fan.token);
      expect(await t.data(MARK_READ, {}, author.token)).toEqual({ markNotificationsRead: 1 });
      await t.data(UNLIKE_POST, { postId }, fan.token);
      expect((await page(author)).edges.map(({ node }) => node.read)).toEqual([true]);
      await t.data(LIKE_POST, { postId }, fan.token);
      expect((await page(author)).edges.map(({ node }) => node.read)).toEqual([false, true]);
    });

    it('should leave one unread notification however often a like is undone and redone', async () => {
      const [author, fan] = [await t.signUp(), await t.signUp()];
      const postId = await createPost(author, 'Back and forth');
      for (let i = 0; i < 3; i++) {
        await t.data(LIKE_POST, { postId }, fan.token);
        await t.data(UNLIKE_POST, { postId }, fan.token);
      }
      await t.data(LIKE_POST, { postId }, fan.token);
      expect(await summary(author)).toEqual([`POST_LIKED ${fan.user.name} Back and forth`]);
      expect(await rows({ recipientId: author.user.id })).toBe(1);
    });

    if (testDatabase() === 'sqlite') {
      // SQLite has no statistics to tell a prolific actor from a post with one like: with an
      // index on the actor alone it read every notification the actor had raised.
      it('should find the unread notification of a like by its actor and post together', async () => {
        for (const [name, withPost] of [
          ['insertUnlessUnread', true],
          ['withdraw', true],
          ['insertUnlessUnreadNoPost', false],
          ['withdrawNoPost', false],
        ] as const) {
          const { text, names } = translate(notificationsSql[name].text, 'sqlite');
          const values: Record<string, unknown> = {
            id: v7(),
            recipientId: v7(),
            actorId: v7(),
            kind: withPost ? 'POST_LIKED' : 'FOLLOWED',
            postId: withPost ? v7() : null,
            createdAt: '2026-01-01 00:00:00.000',
          };
          const plan: { detail: string }[] = await t.dataSource.query(
            `EXPLAIN QUERY PLAN ${text}`,
            names.map((key) => values[key]),
          );
          // `post_id IS NULL` reads as `post_id=?` in the plan, and uses the index as well.
          expect(plan.map((step) => step.detail).join('\n')).toMatch(
            /USING INDEX IDX_notifications_actor_post \(actor_id=\? AND post_id=\?\)/,
          );
        }
      });
    }

    it('should withdraw the notification of a comment that is deleted, read or not, and no other', async () => {
      const [author, fan] = [await t.signUp(), await t.signUp()];
      const postId = await createPost(author, 'Discussed');
      const first = (await t.data(ADD_COMMENT, { postId, text: 'First' }, fan.token)).addComment;
      const second = (await t.data(ADD_COMMENT, { postId, text: 'Second' }, fan.token)).addComment;
      expect(await unreadCount(author)).toBe(2);
      await t.data(MARK_READ, {}, author.token);
      await t.data(DELETE_COMMENT, { id: first.id }, fan.token);
      expect(await summary(author)).toEqual([`POST_COMMENTED ${fan.user.name} Discussed`]);
      expect(await rows({ recipientId: author.user.id })).toBe(1);
      await t.data(DELETE_COMMENT, { id: second.id }, author.token);
      expect(await summary(author)).toEqual([]);
    });

    it("should not touch another liker's notification", async () => {
      const [author, fan, other] = [await t.signUp(), await t.signUp(), await t.signUp()];
      const postId = await createPost(author, 'Shared');
      await t.data(LIKE_POST, { postId }, fan.token);
      await t.data(LIKE_POST, { postId }, other.token);
      await t.data(UNLIKE_POST, { postId }, fan.token);
      expect(await summary(author)).toEqual([`POST_LIKED ${other.user.name} Shared`]);
    });
  });

  describe('unread counts and marking read', () => {
    /** A user with `count` unread notifications, each from a new follower; newest last. */
    const userWithFollowers = async (count: number) => {
      const user = await t.signUp();
      const followers: TestUser[] = [];
      for (let i = 0; i < count; i++) {
        const follower = await t.signUp();
        await follow(follower, user);
        followers.push(follower);
      }
      return { user, followers };
    };

    it('should mark all unread ones read and say how many', async () => {
      const { user } = await userWithFollowers(3);
      expect(await unreadCount(user)).toBe(3);
      expect(await t.data(MARK_READ, {}, user.token)).toEqual({ markNotificationsRead: 3 });
      expect(await unreadCount(user)).toBe(0);
      expect(await t.data(MARK_READ, {}, user.token)).toEqual({ markNotificationsRead: 0 });
      expect((await page(user)).edges.every(({ node }) => node.read)).toBe(true);
    });

    it('should mark those up to upTo, that one and older, and leave newer ones unread', async () => {
      const { user } = await userWithFollowers(4);
      const ids = (await page(user)).edges.map(({ node }) => node.id);
      expect(await t.data(MARK_READ, { upTo: ids[2] }, user.token)).toEqual({
        markNotificationsRead: 2,
      });
      const after = await page(user);
      expect(after.edges.map(({ node }) => node.read)).toEqual([false, false, true, true]);
      expect(after.unread).toBe(2);
      expect(await t.data(MARK_READ, { upTo: ids[3] }, user.token)).toEqual({
        markNotificationsRead: 0,
      });
    });

    it('should list only unread ones with unreadOnly', async () => {
      const { user, followers } = await userWithFollowers(3);
      const ids = (await page(user)).edges.map(({ node }) => node.id);
      await t.data(MARK_READ, { upTo: ids[1] }, user.token);
      expect(await summary(user, true)).toEqual([`FOLLOWED ${followers[2].user.name}`]);
    });

    it("should answer NOT_FOUND for an upTo of someone else's notification, and mark nothing", async () => {
      const { user } = await userWithFollowers(1);
      const { user: other } = await userWithFollowers(1);
      const [{ node }] = (await page(other)).edges;
      const refused = await t.gql(MARK_READ, { upTo: node.id }, user.token);
      expect(codeOf(refused)).toBe('NOT_FOUND');
      expect(refused.data).toBeNull();
      expect(await unreadCount(user)).toBe(1);
      expect(await unreadCount(other)).toBe(1);
      const missing = await t.gql(MARK_READ, { upTo: v7() }, user.token);
      expect(codeOf(missing)).toBe('NOT_FOUND');
    });

    it('should answer BAD_USER_INPUT for an upTo that is no id', async () => {
      const { user } = await userWithFollowers(1);
      for (const upTo of ['nope', "1' OR 1=1 --", 'x'.repeat(5000)]) {
        const refused = await t.gql(MARK_READ, { upTo }, user.token);
        expect(refused.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'upTo' });
      }
      expect(await unreadCount(user)).toBe(1);
    });
  });

  describe('pages', () => {
    it('should list newest first, in pages that follow their endCursor', async () => {
      const user = await t.signUp();
      const names: string[] = [];
      for (let i = 0; i < 5; i++) {
        const follower = await t.signUp();
        await follow(follower, user);
        names.unshift(follower.user.name);
      }
      const first = await page(user, { first: 2 });
      expect(first.pageInfo.hasNextPage).toBe(true);
      const second = await page(user, { first: 2, after: first.pageInfo.endCursor! });
      const third = await page(user, { first: 2, after: second.pageInfo.endCursor! });
      expect(third.pageInfo).toEqual({ hasNextPage: false, endCursor: third.edges[0].cursor });
      const seen = [...first.edges, ...second.edges, ...third.edges];
      expect(seen.map(({ node }) => node.actor.name)).toEqual(names);
      expect(new Set(seen.map(({ node }) => node.id)).size).toBe(5);
    });

    it('should go on from a cursor whose notification has been withdrawn since', async () => {
      const user = await t.signUp();
      const followers = [await t.signUp(), await t.signUp(), await t.signUp()];
      for (const follower of followers) await follow(follower, user);
      const first = await page(user, { first: 2 });
      await t.data(UNFOLLOW_USER, { userId: user.user.id }, followers[1].token);
      const rest = await page(user, { first: 2, after: first.pageInfo.endCursor! });
      expect(rest.edges.map(({ node }) => node.actor.id)).toEqual([followers[0].user.id]);
    });

    it('should refuse a cursor that is not one, and a page too large, with BAD_USER_INPUT', async () => {
      const user = await t.signUp();
      for (const variables of [{ after: 'garbage' }, { after: v7() }, { first: 101 }]) {
        const refused = await t.gql(NOTIFICATIONS, variables, user.token);
        expect(codeOf(refused)).toBe('BAD_USER_INPUT');
      }
    });

    it('should answer an empty page at first: 0, saying whether there are more', async () => {
      const [user, follower] = [await t.signUp(), await t.signUp()];
      await follow(follower, user);
      expect(await page(user, { first: 0 })).toMatchObject({
        edges: [],
        pageInfo: { hasNextPage: true, endCursor: null },
        unread: 1,
      });
    });
  });

  describe('drafts stay private', () => {
    it('should leave out the notifications of a post while it is a draft again', async () => {
      const [author, fan, follower] = [await t.signUp(), await t.signUp(), await t.signUp()];
      await follow(follower, author);
      const postId = await createPost(author, 'Withdrawn');
      await t.data(LIKE_POST, { postId }, fan.token);
      const unpublish = (publishedAt: Date | null) =>
        t.dataSource.getRepository(Post).update({ id: postId }, { publishedAt });
      await unpublish(null);
      expect(await summary(author)).toEqual([`FOLLOWED ${follower.user.name}`]);
      expect(await summary(follower)).toEqual([]);
      expect(await unreadCount(follower)).toBe(0);
      expect(await t.data(MARK_READ, {}, follower.token)).toEqual({ markNotificationsRead: 0 });
      await unpublish(new Date());
      expect(await summary(follower)).toEqual([`FOLLOWEE_PUBLISHED ${author.user.name} Withdrawn`]);
      expect(await unreadCount(follower)).toBe(1);
    });

    it("should remove a deleted post's notifications", async () => {
      const [author, fan, follower] = [await t.signUp(), await t.signUp(), await t.signUp()];
      await follow(follower, author);
      const postId = await createPost(author, 'Gone');
      await t.data(LIKE_POST, { postId }, fan.token);
      await t.data(`mutation ($id: ID!) { deletePost(id: $id) }`, { id: postId }, author.token);
      expect(await rows({ postId })).toBe(0);
      expect(await summary(follower)).toEqual([]);
    });
  });

  describe('signed out', () => {
    it('should answer UNAUTHENTICATED to every notifications field', async () => {
      for (const document of [NOTIFICATIONS, UNREAD_COUNT, MARK_READ]) {
        const response = await t.gql(document);
        expect(codeOf(response)).toBe('UNAUTHENTICATED');
      }
    });
  });

  describe('deleted accounts', () => {
    it("should remove a deleted user's notifications, those they received and those they raised", async () => {
      const [leaver, stayer, other] = [await t.signUp(), await t.signUp(), await t.signUp()];
      await follow(leaver, stayer);
      await follow(stayer, leaver);
      await follow(other, stayer);
      expect(await rows({ recipientId: leaver.user.id })).toBe(1);
      await t.data(DELETE_ACCOUNT, { password: leaver.password }, leaver.token);
      expect(await rows({ recipientId: leaver.user.id })).toBe(0);
      expect(await rows({ actorId: leaver.user.id })).toBe(0);
      expect(await summary(stayer)).toEqual([`FOLLOWED ${other.user.name}`]);
    });
  });

  describe('statements per request', () => {
    const countFor = async (user: TestUser, first: number) => {
      const { data, count } = await t.counted<{ notifications: Page }>(
        NOTIFICATIONS,
        { first },
        user.token,
      );
      return { count, data: data.notifications };
    };

    it('should read a page of 2 and of 12 notifications with the same statements', async () => {
      const user = await t.signUp();
      for (let i = 0; i < 12; i++) {
        const fan = await t.signUp();
        await t.data(LIKE_POST, { postId: await createPost(user, `Post ${i}`) }, fan.token);
      }
      await t.fannedOut();
      const small = await countFor(user, 2);
      const large = await countFor(user, 12);
      expect(large.data.edges).toHaveLength(12);
      expect(new Set(large.data.edges.map(({ node }) => node.actor.id)).size).toBe(12);
      expect(new Set(large.data.edges.map(({ node }) => node.post?.id)).size).toBe(12);
      expect(large.count).toBe(small.count);
    });

    it('should price the list by its page size in the cost limit', async () => {
      const user = await t.signUp();
      const nested = (first: number) => `{ notifications(first: ${first}) { edges { node {
        post { comments(first: 100) { post { comments(first: 100) { id } } } } } } } }`;
      expect(codeOf(await t.gql(nested(1), {}, user.token))).toBeUndefined();
      const refused = await t.gql(nested(100), {}, user.token);
      expect(codeOf(refused)).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(refused.errors?.[0].extensions).toMatchObject({ limit: 'complexity' });
    });
  });

  describe('the fan-out to followers on publish', () => {
    const FOLLOWERS = 10_000;

    /** `count` users who follow `author`, written straight to the database. */
    const addFollowers = async (author: TestUser, count: number): Promise<string[]> => {
      const now = new Date();
      const ids = Array.from({ length: count }, () => v7());
      const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
      for (let start = 0; start < count; start += 500) {
        const chunk = ids.slice(start, start + 500);
        await t.dataSource.getRepository(User).insert(
          chunk.map((id, i) => ({
            id,
            name: `Follower ${start + i}`,
            email: `f${start + i}.${tag}@example.com`,
            handle: `f${start + i}_${tag}`,
            passwordHash: 'not a hash',
            role: Role.AUTHOR,
            createdAt: now,
            updatedAt: now,
          })),
        );
        await t.dataSource
          .getRepository(Follow)
          .insert(
            chunk.map((followerId) => ({ followerId, followeeId: author.user.id, createdAt: now })),
          );
      }
      return ids;
    };
    const publishCounted = async (author: TestUser) => {
      const draftId = await createPost(author, 'News for all', false);
      await t.fannedOut();
      const before = t.statements.statements.length;
      await t.data(PUBLISH_POST, { id: draftId }, author.token);
      await t.fannedOut();
      const sent = t.statements.statements.slice(before);
      return { draftId, sent };
    };
    const inserts = (sent: string[]) =>
      sent.filter((text) => /^\s*INSERT INTO notifications/i.test(text));

    it(`should reach ${FOLLOWERS} followers in chunks of ${FAN_OUT_CHUNK}, no statement growing with them`, async () => {
      const small = await t.signUp();
      await addFollowers(small, 1);
      const one = await publishCounted(small);
      expect(inserts(one.sent)).toHaveLength(1);
      expect(await rows({ postId: one.draftId })).toBe(1);

      const popular = await t.signUp();
      const followerIds = await addFollowers(popular, FOLLOWERS);
      const many = await publishCounted(popular);
      // A chunk that comes back short ends the publication: one more, empty, after full ones.
      const chunks = Math.floor(FOLLOWERS / FAN_OUT_CHUNK) + 1;
      // One bounded INSERT per chunk, the same text each time, and a few statements around it.
      expect(inserts(many.sent)).toEqual(Array(chunks).fill(inserts(one.sent)[0]));
      expect(inserts(one.sent)[0]).toMatch(/ORDER BY f.follower_id LIMIT /);
      const perChunk = (many.sent.length - one.sent.length) / (chunks - 1);
      expect(perChunk).toBeLessThanOrEqual(8);
      expect(await rows({ postId: many.draftId })).toBe(FOLLOWERS);

      const stored = await t.dataSource
        .getRepository(Notification)
        .find({ where: { postId: many.draftId }, select: { id: true, recipientId: true } });
      expect(new Set(stored.map((row) => row.id)).size).toBe(FOLLOWERS);
      expect(new Set(stored.map((row) => row.recipientId))).toEqual(new Set(followerIds));
      expect(
        stored.every((row) =>
          /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(row.id),
        ),
      ).toBe(true);
    }, 120_000);

    it("should list a follower's publication notification newest first among the others", async () => {
      const [author, follower, fan] = [await t.signUp(), await t.signUp(), await t.signUp()];
      await follow(follower, author);
      const postId = await createPost(follower, 'Own post');
      await t.data(LIKE_POST, { postId }, fan.token);
      await createPost(author, 'Fresh news');
      await t.fannedOut();
      await t.data(ADD_COMMENT, { postId, text: 'Later' }, fan.token);
      expect(await summary(follower)).toEqual([
        `POST_COMMENTED ${fan.user.name} Own post`,
        `FOLLOWEE_PUBLISHED ${author.user.name} Fresh news`,
        `POST_LIKED ${fan.user.name} Own post`,
      ]);
    });

    /** Starts a fan-out as the app does, and waits until it has fanned out what it found. */
    const startedAndSettled = async (fanOut: PublicationFanOut) => {
      await fanOut.onApplicationBootstrap();
      await fanOut.settled();
    };
    const others: PublicationFanOut[] = [];
    /** A fan-out of its own, beside the app's, over the app's database; stopped after the test. */
    const anotherFanOut = () => {
      const fanOut = new PublicationFanOut(t.app.get(Sql), t.app.get(BlogEvents));
      others.push(fanOut);
      return fanOut;
    };
    afterEach(async () => {
      await Promise.all(others.splice(0).map((fanOut) => fanOut.beforeApplicationShutdown()));
    });
    /** `count` published posts of `author` whose fan-out a stopped process left pending. */
    const leftPending = async (author: TestUser, count: number): Promise<string[]> => {
      const at = new Date();
      const postIds = Array.from({ length: count }, () => v7());
      await t.dataSource.getRepository(Post).insert(
        postIds.map((id) => ({
          id,
          title: 'Left pending',
          content: 'By a process that stopped',
          authorId: author.user.id,
          createdAt: at,
          updatedAt: at,
          publishedAt: at,
        })),
      );
      const [sql, fanOut] = [t.app.get(Sql), anotherFanOut()];
      for (const postId of postIds) {
        await fanOut.enqueue(sql, { postId, actorId: author.user.id }, at);
      }
      return postIds;
    };

    it('should fan each pending publication out once when two instances take them together', async () => {
      const [author, one, two] = [await t.signUp(), await t.signUp(), await t.signUp()];
      await follow(one, author);
      await follow(two, author);
      await t.fannedOut();
      const posts = 40;
      await leftPending(author, posts);
      const instances = [anotherFanOut(), anotherFanOut()];
      await Promise.all(instances.map((instance) => startedAndSettled(instance)));
      const stored = await t.dataSource
        .getRepository(Notification)
        .find({ where: { actorId: author.user.id }, select: { postId: true, recipientId: true } });
      expect(stored).toHaveLength(posts * 2);
      expect(new Set(stored.map((row) => `${row.postId} ${row.recipientId}`)).size).toBe(posts * 2);
      expect(await t.dataSource.query('SELECT id FROM publication_fan_outs')).toEqual([]);
    });

    if (testDatabase() === 'postgres') {
      /**
       * Whether a fan-out over the database ends on its own, or waits on a lock that another
       * transaction holds (which, if that one then waits on the fan-out, is a deadlock).
       */
      const endsOrWaits = async (fanning: Promise<void>): Promise<string> => {
        let ended = false;
        void fanning.then(() => (ended = true));
        for (let poll = 0; poll < 250; poll++) {
          if (ended) return 'ends';
          const [{ waiting }] = await t.dataSource.query(
            "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          );
          if (waiting > 0) return 'waits';
          await settle(20);
        }
        return 'neither';
      };
      /**
       * Locks the row `id` of `table` in a transaction of its own, as a deletion (or a change of a
       * key, such as an email) does, and runs `during` while it holds it; then deletes the row and
       * commits (`'delete'`), or lets it go unchanged (`'release'`).
       */
      const holding = async (
        table: string,
        id: string,
        during: () => Promise<void>,
        end: 'delete' | 'release',
      ) => {
        const holder = t.dataSource.createQueryRunner();
        await holder.connect();
        try {
          await holder.startTransaction();
          await holder.query(`SELECT id FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
          await during();
          if (end === 'delete') {
            await holder.query(`DELETE FROM ${table} WHERE id = $1`, [id]);
            await holder.commitTransaction();
          }
        } finally {
          if (holder.isTransactionActive) await holder.rollbackTransaction();
          await holder.release();
        }
      };

      it.each([
        ['its post', 'posts', (postId: string) => postId],
        ['its author', 'users', (_postId: string, authorId: string) => authorId],
      ])(
        'should skip a publication while %s is being deleted, so that neither waits for the other',
        async (_what, table, idOf) => {
          const [author, other, follower] = [await t.signUp(), await t.signUp(), await t.signUp()];
          await follow(follower, author);
          await follow(follower, other);
          await t.fannedOut();
          const [doomed] = await leftPending(author, 1);
          const [kept] = await leftPending(other, 1);
          await holding(
            table,
            idOf(doomed, author.user.id),
            async () => {
              expect(await endsOrWaits(startedAndSettled(anotherFanOut()))).toBe('ends');
            },
            'delete',
          );
          expect(await rows({ postId: doomed })).toBe(0);
          expect(await rows({ postId: kept, recipientId: follower.user.id })).toBe(1);
          expect(await t.dataSource.query('SELECT id FROM publication_fan_outs')).toEqual([]);
        },
      );

      it("should hold none of a leaving follower's rows while it waits for their deletion, then try again without them", async () => {
        const [author, leaver, stayer] = [await t.signUp(), await t.signUp(), await t.signUp()];
        await follow(leaver, author);
        await follow(stayer, author);
        await t.fannedOut();
        const [leaversPost] = await leftPending(leaver, 1);
        const [authorsPost] = await leftPending(author, 1);
        let fanning: Promise<void> = Promise.resolve();
        await holding(
          'users',
          leaver.user.id,
          async () => {
            fanning = startedAndSettled(anotherFanOut());
            expect(await endsOrWaits(fanning)).toBe('waits');
            const free = await t.dataSource.query(
              'SELECT id FROM publication_fan_outs WHERE post_id = $1 FOR UPDATE SKIP LOCKED',
              [leaversPost],
            );
            expect(free).toHaveLength(1);
          },
          'delete',
        );
        await fanning;
        expect(await rows({ postId: authorsPost })).toBe(0);
        await startedAndSettled(anotherFanOut());
        expect(await rows({ postId: authorsPost })).toBe(1);
        expect(await rows({ postId: authorsPost, recipientId: stayer.user.id })).toBe(1);
        expect(await t.dataSource.query('SELECT id FROM publication_fan_outs')).toEqual([]);
      });

      it('should come back by itself for a publication it skipped once the lock is gone', async () => {
        const [author, follower] = [await t.signUp(), await t.signUp()];
        await follow(follower, author);
        await t.fannedOut();
        const [postId] = await leftPending(author, 1);
        const fanOut = anotherFanOut();
        // As a change of the author's email, or a deletion rolled back, would hold it.
        await holding(
          'users',
          author.user.id,
          async () => {
            await startedAndSettled(fanOut);
            expect(await rows({ postId })).toBe(0);
          },
          'release',
        );
        const notified = () => t.dataSource.getRepository(Notification).countBy({ postId });
        for (let poll = 0; poll < 100 && (await notified()) === 0; poll++) await settle(50);
        expect(await notified()).toBe(1);
        expect(await t.dataSource.query('SELECT id FROM publication_fan_outs')).toEqual([]);
      });
    }
  });

  describe('notificationAdded on the WebSocket', () => {
    let ws: string;

    beforeAll(async () => {
      ({ ws } = await t.listen());
    });

    it("should deliver each of the recipient's new notifications to them, and to no one else", async () => {
      const [author, fan, other] = [await t.signUp(), await t.signUp(), await t.signUp()];
      const postId = await createPost(author, 'Live');
      const clients = [
        wsClient(ws, author.token),
        wsClient(ws, fan.token),
        wsClient(ws, other.token),
      ];
      try {
        const [asAuthor, asFan, asOther] = clients.map(({ client }) =>
          collect(client, NOTIFICATION_ADDED),
        );
        await t.untilSubscribed(BlogEvent.NotificationAdded, 3);
        await t.data(LIKE_POST, { postId }, fan.token);
        await t.data(ADD_COMMENT, { postId, text: 'Hi' }, fan.token);
        await follow(fan, author);
        const events = await asAuthor.next(3);
        expect(events.map((event) => event.data?.notificationAdded)).toEqual([
          expect.objectContaining({
            kind: 'POST_LIKED',
            read: false,
            post: { id: postId, title: 'Live' },
          }),
          expect.objectContaining({
            kind: 'POST_COMMENTED',
            actor: { id: fan.user.id, name: fan.user.name },
          }),
          expect.objectContaining({ kind: 'FOLLOWED', post: null }),
        ]);
        const listed = (await page(author)).edges.map(({ node }) => node.id).reverse();
        expect(events.map((event) => event.data?.notificationAdded.id)).toEqual(listed);
        await settle();
        expect(asFan.results).toEqual([]);
        expect(asOther.results).toEqual([]);
      } finally {
        await Promise.all(clients.map(({ client }) => client.dispose()));
      }
    });

    it('should deliver a publication to the followers who subscribe, not to others or the author', async () => {
      const [author, follower, stranger] = [await t.signUp(), await t.signUp(), await t.signUp()];
      await follow(follower, author);
      const clients = [
        wsClient(ws, follower.token),
        wsClient(ws, stranger.token),
        wsClient(ws, author.token),
      ];
      try {
        const [asFollower, asStranger, asAuthor] = clients.map(({ client }) =>
          collect(client, NOTIFICATION_ADDED),
        );
        await t.untilSubscribed(BlogEvent.NotificationAdded, 3);
        const postId = await createPost(author, 'Broadcast');
        const [event] = await asFollower.next(1);
        const [{ node }] = (await page(follower)).edges;
        expect(event.data?.notificationAdded).toEqual({
          id: node.id,
          kind: 'FOLLOWEE_PUBLISHED',
          read: false,
          actor: { id: author.user.id, name: author.user.name },
          post: { id: postId, title: 'Broadcast' },
        });
        await settle();
        expect(asStranger.results).toEqual([]);
        expect(asAuthor.results).toEqual([]);
      } finally {
        await Promise.all(clients.map(({ client }) => client.dispose()));
      }
    });

    it('should read the same statements to deliver a publication to 1 and to 5 followers', async () => {
      const statementsFor = async (followers: number) => {
        const author = await t.signUp();
        const users: TestUser[] = [];
        for (let i = 0; i < followers; i++) {
          const user = await t.signUp();
          await follow(user, author);
          users.push(user);
        }
        const clients = users.map((user) => wsClient(ws, user.token));
        try {
          const streams = clients.map(({ client }) => collect(client, NOTIFICATION_ADDED));
          await t.untilSubscribed(BlogEvent.NotificationAdded, followers);
          await t.fannedOut();
          const before = t.statements.statements.length;
          await createPost(author, 'Counted');
          const events = await Promise.all(streams.map(async (stream) => stream.next(1)));
          expect(events.every((received) => received[0]?.data?.notificationAdded)).toBe(true);
          // With the post's search index batch, whenever it runs.
          await t.fannedOut();
          return t.statements.statements.length - before;
        } finally {
          await Promise.all(clients.map(({ client }) => client.dispose()));
        }
      };
      expect(await statementsFor(5)).toBe(await statementsFor(1));
    });

    it('should push a like/unlike loop live at most once a minute, storing one notification', async () => {
      const [author, fan] = [await t.signUp(), await t.signUp()];
      const postId = await createPost(author, 'Loved');
      const { client } = wsClient(ws, author.token);
      try {
        const stream = collect(client, NOTIFICATION_ADDED);
        await t.untilSubscribed(BlogEvent.NotificationAdded, 1);
        for (let i = 0; i < 5; i++) {
          await t.data(LIKE_POST, { postId }, fan.token);
          await t.data(UNLIKE_POST, { postId }, fan.token);
        }
        await t.data(LIKE_POST, { postId }, fan.token);
        // A comment is news each time: it comes after the one push of the likes.
        await t.data(ADD_COMMENT, { postId, text: 'Then a word' }, fan.token);
        const received = await stream.next(2);
        expect(received.map((event) => event.data?.notificationAdded.kind)).toEqual([
          'POST_LIKED',
          'POST_COMMENTED',
        ]);
        await settle();
        expect(stream.results).toHaveLength(2);
        expect(await summary(author, true)).toEqual([
          `POST_COMMENTED ${fan.user.name} Loved`,
          `POST_LIKED ${fan.user.name} Loved`,
        ]);
      } finally {
        await client.dispose();
      }
    });

    it("should re-read only the recipient's viewer for a notification addressed to one user", async () => {
      const [author, fan] = [await t.signUp(), await t.signUp()];
      const listeners = [author];
      for (let i = 0; i < 6; i++) listeners.push(await t.signUp());
      const postId = await createPost(author, 'Watched');
      const clients = listeners.map((user) => wsClient(ws, user.token));
      try {
        const [asAuthor] = clients.map(({ client }) => collect(client, NOTIFICATION_ADDED));
        await t.untilSubscribed(BlogEvent.NotificationAdded, listeners.length);
        const sent: unknown[][] = [];
        const log = jest.spyOn(t.dataSource.logger, 'logQuery');
        log.mockImplementation((query, parameters) => void sent.push([query, parameters]));
        try {
          await t.data(ADD_COMMENT, { postId, text: 'Watched closely' }, fan.token);
          await asAuthor.next(1);
          await settle();
        } finally {
          log.mockRestore();
        }
        // Every user id any statement on users was given: the commenter (the mutation's viewer),
        // the author (the recipient's viewer, and the notification's actor), never the others.
        const userReads = sent
          .filter(([query]) => /FROM "?users"?/i.test(String(query)))
          .flatMap(([, parameters]) => (parameters as unknown[]) ?? [])
          .flatMap((value): unknown[] => {
            // A key list: an array on PostgreSQL, JSON text on SQLite.
            if (Array.isArray(value)) return value;
            return String(value).startsWith('[') ? JSON.parse(String(value)) : [value];
          });
        const others = listeners.slice(1).map((user) => user.user.id);
        expect(userReads.filter((id) => others.includes(String(id)))).toEqual([]);
        expect(new Set(userReads)).toEqual(new Set([fan.user.id, author.user.id]));
      } finally {
        await Promise.all(clients.map(({ client }) => client.dispose()));
      }
    });

    it('should refuse the subscription when signed out, with UNAUTHENTICATED', async () => {
      const { client } = wsClient(ws);
      try {
        const stream = collect(client, NOTIFICATION_ADDED);
        const [result] = await stream.next(1);
        expect(result.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
        expect(stream.completed).toBe(true);
      } finally {
        await client.dispose();
      }
    });
  });
});

describe('Notifications under the write and cost limits (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({
      env: { RATE_LIMIT_WRITES_PER_MINUTE: '2', GRAPHQL_MAX_COMPLEXITY: '1000' },
    });
  });
  afterAll(() => t.close());

  it('should price each unreadNotificationsCount as a count of its own', async () => {
    const user = await t.signUp();
    const aliases = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `c${i}: unreadNotificationsCount`).join(' ')} }`;
    expect(codeOf(await t.gql(aliases(9), {}, user.token))).toBeUndefined();
    const refused = await t.gql(aliases(11), {}, user.token);
    expect(refused.errors?.[0].extensions).toMatchObject({ limit: 'complexity' });
  });

  it('should count each markNotificationsRead as a write, and refuse the ones over the limit', async () => {
    const user = await t.signUp();
    const refused = await t.gql(
      `mutation { a: markNotificationsRead b: markNotificationsRead c: markNotificationsRead }`,
      {},
      user.token,
    );
    expect(codeOf(refused)).toBe('TOO_MANY_REQUESTS');
    expect(await t.data(MARK_READ, {}, user.token)).toEqual({ markNotificationsRead: 0 });
    expect(await t.data(MARK_READ, {}, user.token)).toEqual({ markNotificationsRead: 0 });
    expect(codeOf(await t.gql(MARK_READ, {}, user.token))).toBe('TOO_MANY_REQUESTS');
  });
});

describe('Without the notifications feature (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { BLOG_FEATURES: 'search,tags,bookmarks' } });
  });
  afterAll(() => t.close());

  it('should follow, like, comment and publish as before, raising nothing', async () => {
    const [author, fan] = [await t.signUp(), await t.signUp()];
    await t.data(FOLLOW_USER, { userId: author.user.id }, fan.token);
    const { createPost } = await t.data(
      CREATE_POST,
      { input: { title: 'Quiet', content: 'No news' } },
      fan.token,
    );
    const postId = createPost.id;
    await t.data(LIKE_POST, { postId }, author.token);
    await t.data(ADD_COMMENT, { postId, text: 'Hi' }, author.token);
    await t.data(UNLIKE_POST, { postId }, author.token);
    await t.data(UNFOLLOW_USER, { userId: author.user.id }, fan.token);
    expect(await t.dataSource.getRepository(Notification).count()).toBe(0);
    const { likesCount } = (await t.data(`{ post(id: "${postId}") { likesCount } }`)).post;
    expect(likesCount).toBe(0);
    expect(codeOf(await t.gql(UNREAD_COUNT, {}, author.token))).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
