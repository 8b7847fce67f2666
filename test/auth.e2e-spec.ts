import { User, WS_UNAUTHORIZED } from '../src/blog';
import { TestApp } from './helpers/test-app';
import { forgeToken, nowInSeconds } from './helpers/tokens';
import { collect, wsClient } from './helpers/ws-client';
import { BlogEvent } from '../src/blog/events/blog-events';

const SECRET = process.env.JWT_SECRET as string;
const ME = `{ me { id name email } }`;
const SIGN_UP = `mutation ($input: SignUpInput!) {
  signUp(input: $input) { token expiresAt user { id name email handle avatar createdAt } }
}`;
const LOG_IN = `mutation ($input: LogInInput!) { logIn(input: $input) { token expiresAt user { id } } }`;
const LOG_OUT_EVERYWHERE = `mutation { logOutEverywhere }`;

const MALFORMED = 'The access token is malformed.';
const BAD_SIGNATURE = 'The access token is not signed by this service.';
const EXPIRED = 'The access token has expired.';
const REVOKED = 'The access token was revoked; sign in again.';
const USER_GONE = "The access token's account no longer exists.";

describe('Authentication (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  describe('signUp', () => {
    it('should create a user, hash the password with argon2id and return a working token', async () => {
      const { signUp } = await t.data(SIGN_UP, {
        input: { name: '  Émile Zola ', email: 'Emile@Example.com', password: 'j-accuse-1898' },
      });
      expect(signUp.user).toMatchObject({
        name: 'Émile Zola',
        email: 'emile@example.com',
        handle: 'emile_zola',
        avatar: null,
      });
      expect(new Date(signUp.expiresAt).getTime()).toBeGreaterThan(Date.now() + 59 * 60_000);
      const stored = await t.dataSource
        .getRepository(User)
        .createQueryBuilder('u')
        .addSelect('u.passwordHash')
        .where('u.id = :id', { id: signUp.user.id })
        .getOneOrFail();
      expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
      const { me } = await t.data(ME, {}, `Bearer ${signUp.token}`);
      expect(me).toEqual({ id: signUp.user.id, name: 'Émile Zola', email: 'emile@example.com' });
    });

    it('should derive a free handle when the name-based one is taken', async () => {
      const first = await t.signUp({ name: 'Same Name' });
      const second = await t.signUp({ name: 'Same Name' });
      expect(first.user.handle).toBe('same_name');
      expect(second.user.handle).toMatch(/^same_name_\d+$/);
    });

    it('should answer CONFLICT for a taken email, whatever its case, and not create a user', async () => {
      const { user } = await t.signUp();
      const before = await t.dataSource.getRepository(User).count();
      const response = await t.gql(SIGN_UP, {
        input: { name: 'Copy', email: user.email.toUpperCase(), password: 'long enough' },
      });
      expect(response.errors?.[0].extensions).toEqual({ code: 'CONFLICT', field: 'email' });
      expect(await t.dataSource.getRepository(User).count()).toBe(before);
    });

    it('should answer CONFLICT for a taken handle, whatever its case', async () => {
      await t.signUp({ handle: 'taken_handle' });
      const response = await t.gql(SIGN_UP, {
        input: {
          name: 'Copy',
          email: 'other@example.com',
          password: 'long enough',
          handle: 'Taken_Handle',
        },
      });
      expect(response.errors?.[0].extensions).toEqual({ code: 'CONFLICT', field: 'handle' });
    });

    it.each([
      ['email', { email: 'not-an-email' }],
      ['password', { password: 'short' }],
      ['name', { name: '   ' }],
      ['handle', { handle: 'no spaces!' }],
      ['avatar', { avatar: 'javascript:alert(1)' }],
    ])('should answer BAD_USER_INPUT naming %s when it is invalid', async (field, bad) => {
      const response = await t.gql(SIGN_UP, {
        input: { name: 'Valid', email: 'valid@example.com', password: 'long enough', ...bad },
      });
      expect(response.errors?.[0].extensions).toEqual({
        code: 'BAD_USER_INPUT',
        field: `input.${field}`,
      });
      expect(response.errors?.[0].message).toContain(field);
    });
  });

  describe('logIn', () => {
    it('should return a token for the right credentials', async () => {
      const { user, password } = await t.signUp();
      const { logIn } = await t.data(LOG_IN, { input: { email: user.email, password } });
      expect(logIn.user.id).toBe(user.id);
      const { me } = await t.data(ME, {}, logIn.token);
      expect(me.id).toBe(user.id);
    });

    it('should give one generic UNAUTHENTICATED message for a wrong password and an unknown email', async () => {
      const { user } = await t.signUp();
      const wrongPassword = await t.gql(LOG_IN, {
        input: { email: user.email, password: 'wrong password' },
      });
      const unknownEmail = await t.gql(LOG_IN, {
        input: { email: 'nobody@example.com', password: 'whatever1' },
      });
      expect(wrongPassword.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
      expect(unknownEmail.errors?.[0]).toEqual({ ...wrongPassword.errors?.[0] });
      expect(wrongPassword.errors?.[0].message).toBe('The email or password is wrong.');
    });
  });

  describe('the authorization header', () => {
    let user: { id: string };
    let token: string;

    beforeAll(async () => {
      ({ user, token } = await t.signUp());
    });

    it('should treat a request without the header as anonymous', async () => {
      expect(await t.gql(ME)).toEqual({ data: { me: null } });
    });

    it('should accept "Bearer <jwt>" and a bare "<jwt>"', async () => {
      const bare = token.replace(/^Bearer /, '');
      expect((await t.data(ME, {}, token)).me.id).toBe(user.id);
      expect((await t.data(ME, {}, bare)).me.id).toBe(user.id);
      expect((await t.data(ME, {}, `bearer   ${bare}`)).me.id).toBe(user.id);
    });

    const badTokens: [string, () => string, string][] = [
      ['garbage', () => 'Bearer not.a.jwt', MALFORMED],
      [
        'an expired token',
        () =>
          `Bearer ${forgeToken({ sub: user.id, exp: nowInSeconds() - 10 }, { secret: SECRET })}`,
        EXPIRED,
      ],
      [
        'a token without exp',
        () => `Bearer ${forgeToken({ sub: user.id }, { secret: SECRET })}`,
        MALFORMED,
      ],
      [
        'a token signed with another secret',
        () =>
          `Bearer ${forgeToken({ sub: user.id, exp: nowInSeconds() + 600 }, { secret: 'x'.repeat(40) })}`,
        BAD_SIGNATURE,
      ],
      [
        'a token signed with alg none',
        () => `Bearer ${forgeToken({ sub: user.id, exp: nowInSeconds() + 600 }, { alg: 'none' })}`,
        BAD_SIGNATURE,
      ],
      [
        'a tampered token',
        () => {
          const [head, , signature] = token.replace(/^Bearer /, '').split('.');
          const payload = Buffer.from(
            JSON.stringify({ sub: 'someone-else', exp: nowInSeconds() + 600 }),
          ).toString('base64url');
          return `Bearer ${head}.${payload}.${signature}`;
        },
        BAD_SIGNATURE,
      ],
      ['an empty Bearer', () => 'Bearer ', MALFORMED],
    ];

    it.each(badTokens)(
      'should reject %s with UNAUTHENTICATED, never as anonymous',
      async (_, make, message) => {
        const response = await t.gql(ME, {}, make());
        expect(response.data?.me ?? null).toBeNull();
        expect(response.errors).toHaveLength(1);
        expect(response.errors?.[0]).toMatchObject({
          message,
          extensions: { code: 'UNAUTHENTICATED' },
        });
      },
    );

    it('should reject the token of a user who no longer exists', async () => {
      const gone = await t.signUp();
      await t.dataSource.getRepository(User).delete({ id: gone.user.id });
      const response = await t.gql(ME, {}, gone.token);
      expect(response.errors?.[0]).toMatchObject({
        message: USER_GONE,
        extensions: { code: 'UNAUTHENTICATED' },
      });
    });
  });

  describe('over HTTP and the WebSocket alike', () => {
    let ws: string;
    let user: { id: string };
    let token: string;

    beforeAll(async () => {
      ({ ws } = await t.listen());
      ({ user, token } = await t.signUp());
    });

    const signed = (
      claims: Record<string, unknown>,
      options: { secret?: string; alg?: string } = { secret: SECRET },
    ) =>
      `Bearer ${forgeToken({ sub: user.id, ver: 0, exp: nowInSeconds() + 600, ...claims }, options)}`;

    const kinds: [string, () => Promise<string>, string][] = [
      ['malformed', async () => 'Bearer not.a.jwt', MALFORMED],
      [
        'signed with another secret',
        async () => signed({}, { secret: 'x'.repeat(40) }),
        BAD_SIGNATURE,
      ],
      ['signed with alg none', async () => signed({}, { alg: 'none' }), BAD_SIGNATURE],
      ['expired', async () => signed({ exp: nowInSeconds() - 10 }), EXPIRED],
      [
        'revoked',
        async () => {
          const revoked = await t.signUp();
          await t.data(LOG_OUT_EVERYWHERE, {}, revoked.token);
          return revoked.token;
        },
        REVOKED,
      ],
      [
        'of a deleted user',
        async () => {
          const gone = await t.signUp();
          await t.dataSource.getRepository(User).delete({ id: gone.user.id });
          return gone.token;
        },
        USER_GONE,
      ],
    ];

    it.each(kinds)(
      'should refuse a token that is %s with the same code and message',
      async (_, make, message) => {
        const authorization = await make();
        const http = (await t.gql(ME, {}, authorization)).errors?.[0];
        const { client, closed } = wsClient(ws, authorization);
        collect(client, `subscription { postCreated { id } }`);
        const socket = await closed;
        await client.dispose();

        expect(http).toMatchObject({ message, extensions: { code: 'UNAUTHENTICATED' } });
        expect(socket).toEqual({ code: WS_UNAUTHORIZED, reason: `Unauthorized: ${message}` });
      },
    );

    it('should accept the same valid token on both', async () => {
      expect((await t.data(ME, {}, token)).me.id).toBe(user.id);
      const { client, closed } = wsClient(ws, token);
      const events = collect(client, `subscription { postCreated { id } }`);
      await t.untilSubscribed(BlogEvent.PostPublished, 1);
      const created = await t.data<{ createPost: { id: string } }>(
        `mutation { createPost(input: { title: "Seen", content: "x" }) { id } }`,
        {},
        token,
      );
      const [event] = await events.next(1);
      await client.dispose();
      expect(event.data?.postCreated.id).toBe(created.createPost.id);
      expect((await closed).code).not.toBe(WS_UNAUTHORIZED);
    });
  });
});
