import { User } from '../src/blog';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';

const LOG_IN = `mutation ($input: LogInInput!) { logIn(input: $input) { token } }`;
const CHANGE_PASSWORD = `mutation ($input: ChangePasswordInput!) {
  changePassword(input: $input) { token }
}`;
const DELETE_ACCOUNT = `mutation ($password: String!) { deleteAccount(password: $password) }`;

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

const changePassword = (t: TestApp, address: string, user: TestUser, currentPassword: string) =>
  from(
    t,
    address,
    CHANGE_PASSWORD,
    { input: { currentPassword, newPassword: 'a brand new passphrase' } },
    user.token,
  );

describe('One limit for every password check (e2e)', () => {
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

    // The right password is refused as well, from any address, and by logIn too.
    for (const address of ['10.1.0.1', '10.1.0.2']) {
      const right = await changePassword(t, address, victim, victim.password);
      expect(codeOf(right)).toBe('TOO_MANY_REQUESTS');
      expect(retryAfterOf(right)).toBeGreaterThanOrEqual(1);
    }
    const logIn = await from(t, '10.1.0.3', LOG_IN, {
      input: { email: victim.user.email, password: victim.password },
    });
    expect(codeOf(logIn)).toBe('TOO_MANY_REQUESTS');
    // Nothing changed: the password is the old one, so the token still works.
    expect(await stillSignedIn(victim)).toBe(victim.user.id);
  });

  it('should count logIn and account-operation attempts on one account together', async () => {
    const victim = await t.signUp();
    const answers: (string | undefined)[] = [];
    // From ten addresses, so that only the account's own limit can stop them.
    for (let i = 0; i < 5; i++) {
      const input = { email: victim.user.email, password: `guess ${i}` };
      answers.push(codeOf(await from(t, `10.2.0.${i}`, LOG_IN, { input })));
    }
    for (let i = 5; i < 10; i++) {
      const variables = { password: `guess ${i}` };
      answers.push(codeOf(await from(t, `10.2.0.${i}`, DELETE_ACCOUNT, variables, victim.token)));
    }
    expect(answers).toEqual([
      ...Array(5).fill('UNAUTHENTICATED'),
      ...Array(5).fill('BAD_USER_INPUT'),
    ]);

    const right = await from(
      t,
      '10.2.0.10',
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
  'The password-check limit across instances, counted in Redis (e2e)',
  () => {
    let first: TestApp;
    let second: TestApp;

    beforeAll(async () => {
      const env = {
        TRUST_PROXY: '1',
        AUTH_RATE_LIMIT: '4',
        REDIS_URL: process.env.TEST_REDIS_URL,
        REDIS_PREFIX: `blog-e2e-password-${process.pid}-${Date.now()}:`,
      };
      first = await TestApp.start({ env });
      second = await TestApp.start({ env, shareDatabaseOf: first });
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it('should refuse the right password on one instance after wrong guesses on both', async () => {
      const victim = await first.signUp();
      const guesses = [
        await changePassword(first, '10.5.0.1', victim, 'one'),
        await from(second, '10.5.0.2', LOG_IN, {
          input: { email: victim.user.email, password: 'two' },
        }),
        await from(first, '10.5.0.3', DELETE_ACCOUNT, { password: 'three' }, victim.token),
        await changePassword(second, '10.5.0.4', victim, 'four'),
      ];
      expect(guesses.map(codeOf)).toEqual([
        'BAD_USER_INPUT',
        'UNAUTHENTICATED',
        'BAD_USER_INPUT',
        'BAD_USER_INPUT',
      ]);
      const right = await changePassword(first, '10.5.0.5', victim, victim.password);
      expect(codeOf(right)).toBe('TOO_MANY_REQUESTS');
      expect(retryAfterOf(right)).toBeGreaterThanOrEqual(1);
    });
  },
);
