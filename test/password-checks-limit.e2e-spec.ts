import Redis from 'ioredis';

import { User } from '../src/blog';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';

const LOG_IN = `mutation ($input: LogInInput!) { logIn(input: $input) { token } }`;
const CHANGE_PASSWORD = `mutation ($input: ChangePasswordInput!) {
  changePassword(input: $input) { token }
}`;
const DELETE_ACCOUNT = `mutation ($password: String!) { deleteAccount(password: $password) }`;
const SIGN_UP = `mutation ($input: SignUpInput!) { signUp(input: $input) { token } }`;

const codeOf = (response: GraphQLResponse) => response.errors?.[0]?.extensions?.code;
const retryAfterOf = (response: GraphQLResponse) =>
  (response.errors?.[0]?.extensions as { retryAfter?: number } | undefined)?.retryAfter;

/** Sends `query` as if from `address` (TRUST_PROXY=1), with `token` when given. */
async function from(
  t: TestApp,
  address: string,
  query: string,
  variables: Record<string, unknown>,
  token?: string,
): Promise<GraphQLResponse> {
  const req = t.http
    .post('/graphql')
    .set('content-type', 'application/json')
    .set('x-forwarded-for', address);
  if (token) req.set('authorization', token);
  return (await req.send({ query, variables })).body as GraphQLResponse;
}

const logIn = (t: TestApp, address: string, email: string, password: string) =>
  from(t, address, LOG_IN, { input: { email, password } });

const changePassword = (t: TestApp, address: string, user: TestUser, currentPassword: string) =>
  from(
    t,
    address,
    CHANGE_PASSWORD,
    { input: { currentPassword, newPassword: 'a brand new passphrase' } },
    user.token,
  );

describe('The password-check limits per address and per user (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT: '10' } });
  });
  afterAll(() => t.close());

  const stillSignedIn = async (user: TestUser) =>
    (await t.data<{ me: { id: string } | null }>('{ me { id } }', {}, user.token)).me?.id;

  it('should throttle 25 wrong changePassword guesses after the limit, and the right one too', async () => {
    const victim = await t.signUp();
    const answers: GraphQLResponse[] = [];
    for (let i = 0; i < 25; i++) {
      answers.push(await changePassword(t, '10.1.0.1', victim, `wrong guess ${i}`));
    }
    expect(answers.slice(0, 10).map(codeOf)).toEqual(Array(10).fill('BAD_USER_INPUT'));
    expect(answers.slice(10).map(codeOf)).toEqual(Array(15).fill('TOO_MANY_REQUESTS'));
    expect(retryAfterOf(answers[24])).toBeGreaterThanOrEqual(1);
    expect(retryAfterOf(answers[24])).toBeLessThanOrEqual(60);

    // The right password is refused as well, from any address: the token's user is counted.
    for (const address of ['10.1.0.1', '10.1.0.2']) {
      const right = await changePassword(t, address, victim, victim.password);
      expect(codeOf(right)).toBe('TOO_MANY_REQUESTS');
      expect(retryAfterOf(right)).toBeGreaterThanOrEqual(1);
    }
    const deletion = await from(t, '10.1.0.2', DELETE_ACCOUNT, { password: 'x' }, victim.token);
    expect(codeOf(deletion)).toBe('TOO_MANY_REQUESTS');
    // Nothing changed: the password is the old one, so the token still works.
    expect(await stillSignedIn(victim)).toBe(victim.user.id);

    // The owner's log-in form is another matter: a stolen token does not lock it.
    const logIn = await from(t, '10.1.0.3', LOG_IN, {
      input: { email: victim.user.email, password: victim.password },
    });
    expect(logIn.data?.logIn.token).toEqual(expect.any(String));
  });

  it("should not count strangers' log-ins naming the email against the owner's account operations", async () => {
    const owner = await t.signUp();
    const answers: (string | undefined)[] = [];
    // Past the limit per account, from as many addresses.
    for (let i = 0; i < 15; i++) {
      const input = { email: owner.user.email, password: `guess ${i}` };
      answers.push(codeOf(await from(t, `10.2.0.${i}`, LOG_IN, { input })));
    }
    expect(answers).toEqual(Array(15).fill('UNAUTHENTICATED'));

    const wrong = await from(t, '10.2.1.1', DELETE_ACCOUNT, { password: 'typo' }, owner.token);
    expect(codeOf(wrong)).toBe('BAD_USER_INPUT');
    const changed = await changePassword(t, '10.2.1.1', owner, owner.password);
    expect(codeOf(changed)).toBeUndefined();
    const token = `Bearer ${changed.data!.changePassword.token}`;
    const deleted = await from(
      t,
      '10.2.1.1',
      DELETE_ACCOUNT,
      { password: 'a brand new passphrase' },
      token,
    );
    expect(deleted.data?.deleteAccount).toBe(owner.user.id);
    expect(await t.dataSource.getRepository(User).countBy({ id: owner.user.id })).toBe(0);
  });

  it('should count the account operations of one user together, from any address', async () => {
    const victim = await t.signUp();
    const answers: (string | undefined)[] = [];
    // From ten addresses, so that only the user's own limit can stop them.
    for (let i = 0; i < 5; i++) {
      answers.push(codeOf(await changePassword(t, `10.2.2.${i}`, victim, `guess ${i}`)));
    }
    for (let i = 5; i < 10; i++) {
      const variables = { password: `guess ${i}` };
      answers.push(codeOf(await from(t, `10.2.2.${i}`, DELETE_ACCOUNT, variables, victim.token)));
    }
    expect(answers).toEqual(Array(10).fill('BAD_USER_INPUT'));

    const right = await from(
      t,
      '10.2.2.10',
      DELETE_ACCOUNT,
      { password: victim.password },
      victim.token,
    );
    expect(codeOf(right)).toBe('TOO_MANY_REQUESTS');
    expect(await t.dataSource.getRepository(User).countBy({ id: victim.user.id })).toBe(1);
  });

  it('should count the password checks of one address together, whatever the account', async () => {
    const [first, second] = [await t.signUp(), await t.signUp()];
    const address = '10.3.0.1';
    const answers: (string | undefined)[] = [];
    for (let i = 0; i < 5; i++) {
      answers.push(codeOf(await changePassword(t, address, first, `guess ${i}`)));
      const input = { email: second.user.email, password: `guess ${i}` };
      answers.push(codeOf(await from(t, address, LOG_IN, { input })));
    }
    expect(answers).toEqual(Array(5).fill(['BAD_USER_INPUT', 'UNAUTHENTICATED']).flat());

    const third = await from(t, address, DELETE_ACCOUNT, { password: 'guess' }, second.token);
    expect(codeOf(third)).toBe('TOO_MANY_REQUESTS');
    // Another address is not held back by this one.
    expect(codeOf(await changePassword(t, '10.3.0.2', second, 'guess'))).toBe('BAD_USER_INPUT');
  });
});

describe('Nobody locks an owner out by naming their email (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT: '10' } });
  });
  afterAll(() => t.close());

  it('should let the owner in from a known address while a guess from 60 addresses is stopped', async () => {
    const owner = await t.signUp();
    const email = owner.user.email;
    expect(codeOf(await logIn(t, '10.30.0.1', email, owner.password))).toBeUndefined();

    // One guess from each of 60 addresses: the ceiling per email (5 x 10 an hour, the owner's
    // first log-in from their new address included) stops them.
    const guesses: (string | undefined)[] = [];
    for (let i = 0; i < 60; i++) {
      guesses.push(codeOf(await logIn(t, `10.31.0.${i}`, email, `guess ${i}`)));
    }
    expect(guesses).toEqual([
      ...Array(49).fill('UNAUTHENTICATED'),
      ...Array(11).fill('TOO_MANY_REQUESTS'),
    ]);
    const stopped = await logIn(t, '10.31.1.1', email, owner.password);
    expect(codeOf(stopped)).toBe('TOO_MANY_REQUESTS');
    expect(retryAfterOf(stopped)).toBeGreaterThan(60);
    expect(retryAfterOf(stopped)).toBeLessThanOrEqual(3600);

    // The owner, from the address they logged in from, and in any spelling of the email.
    const back = await logIn(t, '10.30.0.1', email.toUpperCase(), owner.password);
    expect(back.data?.logIn.token).toEqual(expect.any(String));
    // Their signed-in account operations, from anywhere, are counted by user, not by email.
    const changed = await changePassword(t, '10.30.2.2', owner, owner.password);
    expect(changed.data?.changePassword.token).toEqual(expect.any(String));
  });

  it('should still cut guessing from one address at the limit, the right password included', async () => {
    const victim = await t.signUp();
    const answers: GraphQLResponse[] = [];
    for (let i = 0; i < 10; i++) {
      answers.push(await logIn(t, '10.32.0.1', victim.user.email, `guess ${i}`));
    }
    answers.push(await logIn(t, '10.32.0.1', victim.user.email, victim.password));
    expect(answers.map(codeOf)).toEqual([
      ...Array(10).fill('UNAUTHENTICATED'),
      'TOO_MANY_REQUESTS',
    ]);
    expect(retryAfterOf(answers[10])).toBeLessThanOrEqual(60);
  });

  it('should cut guessing from a known address at the limit too', async () => {
    const owner = await t.signUp();
    const email = owner.user.email;
    expect(codeOf(await logIn(t, '10.33.0.1', email, owner.password))).toBeUndefined();
    const answers: (string | undefined)[] = [];
    for (let i = 0; i < 10; i++) answers.push(codeOf(await logIn(t, '10.33.0.1', email, `g${i}`)));
    expect(answers).toEqual([...Array(9).fill('UNAUTHENTICATED'), 'TOO_MANY_REQUESTS']);
  });
});

describe('The ceiling on log-ins across the service (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT: '1' } });
  });
  afterAll(() => t.close());

  it('should stop log-ins past 100 times the limit, but not from addresses known to the email', async () => {
    const email = `owner-${Date.now()}@example.com`;
    const password = 'correct horse battery';
    const signedUp = await from(t, '10.40.0.1', SIGN_UP, {
      input: { name: 'Owner', email, password },
    });
    expect(codeOf(signedUp)).toBeUndefined();

    // One guess per address and per email, so that only the ceiling can stop them.
    const guesses: (string | undefined)[] = [];
    for (let i = 0; i < 100; i++) {
      const address = `10.41.${Math.floor(i / 200)}.${i % 200}`;
      guesses.push(codeOf(await logIn(t, address, `nobody-${i}@example.com`, 'guess')));
    }
    expect(guesses).toEqual(Array(100).fill('UNAUTHENTICATED'));
    const stopped = await logIn(t, '10.42.0.1', `nobody-else@example.com`, 'guess');
    expect(codeOf(stopped)).toBe('TOO_MANY_REQUESTS');
    expect(stopped.errors?.[0].message).toMatch(/on this service/);
    expect(codeOf(await logIn(t, '10.42.0.2', email, password))).toBe('TOO_MANY_REQUESTS');

    // The address that signed up is known to the email: its owner still gets in.
    const owner = await logIn(t, '10.40.0.1', email, password);
    expect(owner.data?.logIn.token).toEqual(expect.any(String));
  });
});

describe('The password-check limit over its window (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({
      // Long enough for two password hashes on a loaded machine, short enough to wait out.
      env: { AUTH_RATE_LIMIT: '2', AUTH_RATE_LIMIT_WINDOW_MS: '4000' },
    });
  });
  afterAll(() => t.close());

  it('should accept the right password again once the block has expired', async () => {
    const victim = await t.signUp();
    for (const guess of ['one', 'two']) {
      expect(codeOf(await changePassword(t, '10.4.0.1', victim, guess))).toBe('BAD_USER_INPUT');
    }
    const refused = await changePassword(t, '10.4.0.1', victim, victim.password);
    expect(codeOf(refused)).toBe('TOO_MANY_REQUESTS');

    await new Promise((resolve) => setTimeout(resolve, retryAfterOf(refused)! * 1000 + 200));
    const accepted = await changePassword(t, '10.4.0.1', victim, victim.password);
    expect(codeOf(accepted)).toBeUndefined();
    expect(accepted.data?.changePassword.token).toEqual(expect.any(String));
  });
});

/** Counters in Redis: two instances on one database count one account's checks together. */
(process.env.TEST_REDIS_URL ? describe : describe.skip)(
  'The password-check and log-in limits across instances, counted in Redis (e2e)',
  () => {
    let first: TestApp;
    let second: TestApp;

    const prefix = `blog-e2e-password-${process.pid}-${Date.now()}:`;

    beforeAll(async () => {
      const env = {
        TRUST_PROXY: '1',
        AUTH_RATE_LIMIT: '4',
        REDIS_URL: process.env.TEST_REDIS_URL,
        REDIS_PREFIX: prefix,
      };
      first = await TestApp.start({ env });
      second = await TestApp.start({ env, shareDatabaseOf: first });
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it("should count one user's account operations on both instances together", async () => {
      const victim = await first.signUp();
      const guesses = [
        await changePassword(first, '10.5.0.1', victim, 'one'),
        // A stranger's log-in naming the email is not the user's to count.
        await logIn(second, '10.5.0.2', victim.user.email, 'two'),
        await from(second, '10.5.0.3', DELETE_ACCOUNT, { password: 'three' }, victim.token),
        await from(first, '10.5.0.3', DELETE_ACCOUNT, { password: 'four' }, victim.token),
        await changePassword(second, '10.5.0.4', victim, 'five'),
      ];
      expect(guesses.map(codeOf)).toEqual([
        'BAD_USER_INPUT',
        'UNAUTHENTICATED',
        'BAD_USER_INPUT',
        'BAD_USER_INPUT',
        'BAD_USER_INPUT',
      ]);
      const right = await changePassword(first, '10.5.0.5', victim, victim.password);
      expect(codeOf(right)).toBe('TOO_MANY_REQUESTS');
      expect(retryAfterOf(right)).toBeGreaterThanOrEqual(1);
    });

    it('should share the ceiling per email and the known addresses between instances', async () => {
      const owner = await first.signUp();
      const email = owner.user.email;
      expect(codeOf(await logIn(first, '10.6.0.1', email, owner.password))).toBeUndefined();

      // 5 x 4 attempts, the owner's first from their address and 19 guesses from 19 addresses,
      // on both instances.
      const guesses: (string | undefined)[] = [];
      for (let i = 0; i < 19; i++) {
        guesses.push(codeOf(await logIn(i % 2 ? second : first, `10.6.1.${i}`, email, `g${i}`)));
      }
      expect(guesses).toEqual(Array(19).fill('UNAUTHENTICATED'));
      expect(codeOf(await logIn(first, '10.6.2.1', email, owner.password))).toBe(
        'TOO_MANY_REQUESTS',
      );
      // The address the owner logged in from on the first instance is known on the second.
      const back = await logIn(second, '10.6.0.1', email, owner.password);
      expect(back.data?.logIn.token).toEqual(expect.any(String));

      // Looking for a mark wrote none: the marks in Redis are the two sign-ups' and the owner's
      // log-in address's, none of the 19 addresses looked up.
      const redis = new Redis(process.env.TEST_REDIS_URL!);
      try {
        const marks = await redis.keys(`${prefix}*log-in:known:*`);
        expect(marks).toHaveLength(3);
        expect((await redis.mget(marks)).map(Number)).not.toContain(0);
      } finally {
        redis.disconnect();
      }
    });
  },
);
