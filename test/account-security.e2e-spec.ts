import { Comment, Follow, Like, Post, User, WS_UNAUTHORIZED } from '../src/blog';
import { refuseDeletes } from './helpers/databases';
import { ADD_COMMENT, CREATE_POST, FOLLOW_USER, LIKE_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';
import { collect, settle, wsClient } from './helpers/ws-client';

const ME = `{ me { id } }`;
const LOG_IN = `mutation ($input: LogInInput!) { logIn(input: $input) { token } }`;
const CHANGE_PASSWORD = `mutation ($input: ChangePasswordInput!) {
  changePassword(input: $input) { token expiresAt user { id email } }
}`;
const LOG_OUT_EVERYWHERE = `mutation { logOutEverywhere }`;
const DELETE_ACCOUNT = `mutation ($password: String!) { deleteAccount(password: $password) }`;

describe('Account security (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  const codeOf = (response: { errors?: { extensions?: { code?: string } }[] }) =>
    response.errors?.[0]?.extensions?.code;
  const logIn = (user: TestUser, password = user.password) =>
    t.gql<{ logIn: { token: string } }>(LOG_IN, { input: { email: user.user.email, password } });

  describe('changePassword', () => {
    it('should refuse a wrong current password as BAD_USER_INPUT on input.currentPassword, changing nothing', async () => {
      const user = await t.signUp();
      const response = await t.gql(
        CHANGE_PASSWORD,
        { input: { currentPassword: 'not my password', newPassword: 'a new password' } },
        user.token,
      );

      expect(codeOf(response)).toBe('BAD_USER_INPUT');
      expect(response.errors![0].extensions?.field).toBe('input.currentPassword');
      expect(codeOf(await t.gql(ME, {}, user.token))).toBeUndefined();
      expect(codeOf(await logIn(user))).toBeUndefined();
    });

    it('should refuse a new password shorter than the sign-up rule, on input.newPassword', async () => {
      const user = await t.signUp();
      const response = await t.gql(
        CHANGE_PASSWORD,
        { input: { currentPassword: user.password, newPassword: 'short' } },
        user.token,
      );

      expect(codeOf(response)).toBe('BAD_USER_INPUT');
      expect(response.errors![0].extensions?.field).toBe('input.newPassword');
    });

    it('should revoke every earlier token and return a fresh one that works, within the same second', async () => {
      const user = await t.signUp();
      const other = await logIn(user);
      const { changePassword } = await t.data<{
        changePassword: { token: string; user: { id: string; email: string } };
      }>(
        CHANGE_PASSWORD,
        { input: { currentPassword: user.password, newPassword: 'a brand new password' } },
        user.token,
      );

      expect(changePassword.user).toEqual({ id: user.user.id, email: user.user.email });
      expect(codeOf(await t.gql(ME, {}, user.token))).toBe('UNAUTHENTICATED');
      expect(codeOf(await t.gql(ME, {}, `Bearer ${other.data!.logIn.token}`))).toBe(
        'UNAUTHENTICATED',
      );
      const fresh = await t.data(ME, {}, `Bearer ${changePassword.token}`);
      expect(fresh).toEqual({ me: { id: user.user.id } });
      expect(codeOf(await logIn(user))).toBe('UNAUTHENTICATED');
      expect(codeOf(await logIn(user, 'a brand new password'))).toBeUndefined();
    });

    it('should need a signed-in user', async () => {
      const response = await t.gql(CHANGE_PASSWORD, {
        input: { currentPassword: 'whatever it is', newPassword: 'a new password' },
      });
      expect(codeOf(response)).toBe('UNAUTHENTICATED');
    });
  });

  describe('logOutEverywhere', () => {
    it('should revoke every token of the viewer, the one it was sent with included, even one issued in the same second', async () => {
      const user = await t.signUp();
      const second = `Bearer ${(await logIn(user)).data!.logIn.token}`;
      expect(await t.data(LOG_OUT_EVERYWHERE, {}, user.token)).toEqual({ logOutEverywhere: true });

      expect(codeOf(await t.gql(ME, {}, user.token))).toBe('UNAUTHENTICATED');
      expect(codeOf(await t.gql(ME, {}, second))).toBe('UNAUTHENTICATED');
      const again = `Bearer ${(await logIn(user)).data!.logIn.token}`;
      expect(await t.data(ME, {}, again)).toEqual({ me: { id: user.user.id } });
    });

    it("should leave other users' tokens alone", async () => {
      const user = await t.signUp();
      const bystander = await t.signUp();
      await t.data(LOG_OUT_EVERYWHERE, {}, user.token);
      expect(await t.data(ME, {}, bystander.token)).toEqual({ me: { id: bystander.user.id } });
    });

    it('should need a signed-in user', async () => {
      expect(codeOf(await t.gql(LOG_OUT_EVERYWHERE))).toBe('UNAUTHENTICATED');
    });

    it('should check a token with the one statement that loads the viewer', async () => {
      const user = await t.signUp();
      await t.data(ME, {}, user.token);
      expect(await t.statements.count(() => t.data(ME, {}, user.token))).toBe(1);
    });
  });

  describe('on the WebSocket', () => {
    let ws: string;
    beforeAll(async () => {
      ({ ws } = await t.listen());
    });

    it('should refuse a revoked token at connection_init with 4401', async () => {
      const user = await t.signUp();
      await t.data(LOG_OUT_EVERYWHERE, {}, user.token);
      const { client, closed } = wsClient(ws, user.token);
      collect(client, `subscription { postCreated { id } }`);
      const { code, reason } = await closed;
      expect(code).toBe(WS_UNAUTHORIZED);
      expect(reason).toMatch(/^Unauthorized: /);
    });

    it('should close an open subscription of a user who logs out everywhere at its next event', async () => {
      const user = await t.signUp();
      const writer = await t.signUp();
      const { client, closed } = wsClient(ws, user.token);
      const events = collect(client, `subscription { postCreated { id } }`);
      await settle();
      await t.data(LOG_OUT_EVERYWHERE, {}, user.token);
      await t.data(CREATE_POST, { input: { title: 'After log-out', content: 'x' } }, writer.token);

      const { code } = await closed;
      expect(code).toBe(WS_UNAUTHORIZED);
      expect(events.results.some((result) => result.data?.postCreated)).toBe(false);
    });
  });

  describe('deleteAccount', () => {
    /** A user with a post, a comment and a like on it by someone else, and follows both ways. */
    async function userWithEverything() {
      const user = await t.signUp();
      const friend = await t.signUp();
      const { createPost } = await t.data<{ createPost: { id: string } }>(
        CREATE_POST,
        { input: { title: 'Mine', content: 'x' } },
        user.token,
      );
      const { createPost: friendsPost } = await t.data<{ createPost: { id: string } }>(
        CREATE_POST,
        { input: { title: "Friend's", content: 'x' } },
        friend.token,
      );
      await t.data(ADD_COMMENT, { postId: createPost.id, text: 'by friend' }, friend.token);
      await t.data(LIKE_POST, { postId: createPost.id }, friend.token);
      await t.data(ADD_COMMENT, { postId: friendsPost.id, text: 'by user' }, user.token);
      await t.data(LIKE_POST, { postId: friendsPost.id }, user.token);
      await t.data(FOLLOW_USER, { userId: friend.user.id }, user.token);
      await t.data(FOLLOW_USER, { userId: user.user.id }, friend.token);
      return { user, friend, postId: createPost.id, friendsPostId: friendsPost.id };
    }

    /** Every row that involves `userId`, directly or through their posts. */
    async function rowsOf(userId: string, postId: string) {
      const db = t.dataSource;
      return {
        users: await db.getRepository(User).countBy({ id: userId }),
        posts: await db.getRepository(Post).countBy({ authorId: userId }),
        commentsOnPost: await db.getRepository(Comment).countBy({ postId }),
        commentsBy: await db.getRepository(Comment).countBy({ authorId: userId }),
        likesOnPost: await db.getRepository(Like).countBy({ postId }),
        likesBy: await db.getRepository(Like).countBy({ userId }),
        following: await db.getRepository(Follow).countBy({ followerId: userId }),
        followers: await db.getRepository(Follow).countBy({ followeeId: userId }),
      };
    }
    const EVERYTHING = {
      users: 1,
      posts: 1,
      commentsOnPost: 1,
      commentsBy: 1,
      likesOnPost: 1,
      likesBy: 1,
      following: 1,
      followers: 1,
    };

    it('should refuse a wrong password as BAD_USER_INPUT on password and change nothing', async () => {
      const { user, postId } = await userWithEverything();
      const response = await t.gql(DELETE_ACCOUNT, { password: 'not my password' }, user.token);

      expect(codeOf(response)).toBe('BAD_USER_INPUT');
      expect(response.errors![0].extensions?.field).toBe('password');
      expect(await rowsOf(user.user.id, postId)).toEqual(EVERYTHING);
      expect(codeOf(await t.gql(ME, {}, user.token))).toBeUndefined();
    });

    it('should delete the user with their posts, comments, likes and follows, and free the email', async () => {
      const { user, friend, postId, friendsPostId } = await userWithEverything();
      const { deleteAccount } = await t.data(
        DELETE_ACCOUNT,
        { password: user.password },
        user.token,
      );

      expect(deleteAccount).toBe(user.user.id);
      expect(Object.values(await rowsOf(user.user.id, postId))).toEqual(Array(8).fill(0));
      // The friend keeps what is theirs and not about the deleted user.
      expect(await t.dataSource.getRepository(Post).countBy({ id: friendsPostId })).toBe(1);
      expect(await t.dataSource.getRepository(User).countBy({ id: friend.user.id })).toBe(1);
      expect(codeOf(await t.gql(ME, {}, user.token))).toBe('UNAUTHENTICATED');
      const again = await t.signUp({ email: user.user.email });
      expect(again.user.email).toBe(user.user.email);
    });

    it('should leave everything in place when the deletion fails part-way', async () => {
      const { user, postId } = await userWithEverything();
      const restore = await refuseDeletes(t.dataSource, 'users');
      try {
        const response = await t.gql(DELETE_ACCOUNT, { password: user.password }, user.token);
        expect(codeOf(response)).toBe('INTERNAL_SERVER_ERROR');
      } finally {
        await restore();
      }
      expect(await rowsOf(user.user.id, postId)).toEqual(EVERYTHING);
      expect(codeOf(await t.gql(ME, {}, user.token))).toBeUndefined();
    });

    it('should need a signed-in user', async () => {
      expect(codeOf(await t.gql(DELETE_ACCOUNT, { password: 'whatever it is' }))).toBe(
        'UNAUTHENTICATED',
      );
    });
  });
});
