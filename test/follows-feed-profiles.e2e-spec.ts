import { Follow, User } from '../src/blog';
import {
  CREATE_POST,
  FOLLOW_USER,
  MISSING_ID,
  UNFOLLOW_USER,
  UPDATE_PROFILE,
} from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';

describe('Follows, the feed and profiles (e2e)', () => {
  let t: TestApp;
  let ann: TestUser;
  let ben: TestUser;
  let cat: TestUser;
  const posts: Record<string, string[]> = {};

  const publish = async (who: TestUser, title: string) => {
    const { createPost } = await t.data(
      CREATE_POST,
      { input: { title, content: title } },
      who.token,
    );
    (posts[who.user.id] ??= []).push(createPost.id);
    return createPost.id as string;
  };
  const feedTitles = async (token?: string) =>
    (await t.data(`{ feed { title } }`, {}, token)).feed.map((p: { title: string }) => p.title);

  beforeAll(async () => {
    t = await TestApp.start();
    ann = await t.signUp({ name: 'Ann', handle: 'ann' });
    ben = await t.signUp({ name: 'Ben', handle: 'ben' });
    cat = await t.signUp({ name: 'Cat', handle: 'cat' });
    await publish(ann, 'ann 1');
    await publish(ben, 'ben 1');
    await publish(cat, 'cat 1');
    await publish(ann, 'ann 2');
  });
  afterAll(() => t.close());

  describe('follows', () => {
    it('should follow a user and count both sides', async () => {
      const { followUser } = await t.data(FOLLOW_USER, { userId: ben.user.id }, ann.token);
      expect(followUser).toEqual({ id: ben.user.id, followersCount: 1, isFollowedByMe: true });
      const { user } = await t.data(
        `query ($id: ID!) { user(id: $id) { followingCount followersCount isFollowedByMe } }`,
        { id: ann.user.id },
        ben.token,
      );
      expect(user).toEqual({ followingCount: 1, followersCount: 0, isFollowedByMe: false });
    });

    it('should be idempotent', async () => {
      await t.data(FOLLOW_USER, { userId: ben.user.id }, ann.token);
      expect(await t.dataSource.getRepository(Follow).countBy({ followerId: ann.user.id })).toBe(1);
    });

    it('should answer BAD_USER_INPUT for following yourself, and write nothing', async () => {
      const response = await t.gql(FOLLOW_USER, { userId: ann.user.id }, ann.token);
      expect(response.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'userId' });
      expect(await t.dataSource.getRepository(Follow).countBy({ followeeId: ann.user.id })).toBe(0);
    });

    it('should answer NOT_FOUND for a missing user and UNAUTHENTICATED when anonymous', async () => {
      expect(
        (await t.gql(FOLLOW_USER, { userId: MISSING_ID }, ann.token)).errors?.[0].extensions?.code,
      ).toBe('NOT_FOUND');
      expect((await t.gql(FOLLOW_USER, { userId: ben.user.id })).errors?.[0].extensions?.code).toBe(
        'UNAUTHENTICATED',
      );
    });

    it('should say isFollowedByMe false to an anonymous viewer', async () => {
      const { user } = await t.data(`query ($id: ID!) { user(id: $id) { isFollowedByMe } }`, {
        id: ben.user.id,
      });
      expect(user.isFollowedByMe).toBe(false);
    });
  });

  describe('feed', () => {
    it('should hold the posts of followed authors and the viewer, newest first', async () => {
      expect(await feedTitles(ann.token)).toEqual(['ann 2', 'ben 1', 'ann 1']);
    });

    it('should hold every published post for an anonymous viewer or one who follows no one', async () => {
      const all = ['ann 2', 'cat 1', 'ben 1', 'ann 1'];
      expect(await feedTitles()).toEqual(all);
      expect(await feedTitles(cat.token)).toEqual(all);
    });

    it('should page with first and after', async () => {
      const query = `query ($after: ID) { feed(first: 2, after: $after) { id title } }`;
      const first = (await t.data(query, {}, ann.token)).feed;
      const second = (await t.data(query, { after: first[1].id }, ann.token)).feed;
      expect([...first, ...second].map((p: { title: string }) => p.title)).toEqual([
        'ann 2',
        'ben 1',
        'ann 1',
      ]);
    });

    it('should drop an author after unfollowing', async () => {
      const { unfollowUser } = await t.data(UNFOLLOW_USER, { userId: ben.user.id }, ann.token);
      expect(unfollowUser).toEqual({ id: ben.user.id, followersCount: 0, isFollowedByMe: false });
      await t.data(FOLLOW_USER, { userId: cat.user.id }, ann.token);
      expect(await feedTitles(ann.token)).toEqual(['ann 2', 'cat 1', 'ann 1']);
    });
  });

  describe('profiles', () => {
    it('should update name, handle and avatar', async () => {
      const { updateProfile } = await t.data(
        UPDATE_PROFILE,
        { input: { name: ' Ann B. ', handle: 'Ann_B', avatar: 'https://example.com/ann.png' } },
        ann.token,
      );
      expect(updateProfile).toEqual({
        id: ann.user.id,
        name: 'Ann B.',
        handle: 'ann_b',
        avatar: 'https://example.com/ann.png',
      });
      expect((await t.data(`{ userByHandle(handle: "ANN_B") { id } }`)).userByHandle).toEqual({
        id: ann.user.id,
      });
      const cleared = await t.data(UPDATE_PROFILE, { input: { avatar: '' } }, ann.token);
      expect(cleared.updateProfile.avatar).toBeNull();
    });

    it('should answer CONFLICT for a handle taken in another case, and change nothing', async () => {
      const before = await t.dataSource.getRepository(User).findOneBy({ id: cat.user.id });
      const response = await t.gql(
        UPDATE_PROFILE,
        { input: { handle: 'BEN', name: 'Changed' } },
        cat.token,
      );
      expect(response.errors?.[0].extensions).toEqual({ code: 'CONFLICT', field: 'handle' });
      expect(await t.dataSource.getRepository(User).findOneBy({ id: cat.user.id })).toEqual(before);
    });

    it.each([
      ['input.avatar', { avatar: 'ftp://example.com/a.png' }],
      ['input.avatar', { avatar: 'javascript:alert(1)' }],
      ['input.handle', { handle: 'ab' }],
      ['input.name', { name: 'x'.repeat(101) }],
      ['input.name', { name: '  ' }],
    ])('should answer BAD_USER_INPUT naming %s', async (field, input) => {
      const response = await t.gql(UPDATE_PROFILE, { input }, cat.token);
      expect(response.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field });
    });

    it('should answer UNAUTHENTICATED when anonymous', async () => {
      const response = await t.gql(UPDATE_PROFILE, { input: { name: 'Nobody' } });
      expect(response.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    });
  });
});
