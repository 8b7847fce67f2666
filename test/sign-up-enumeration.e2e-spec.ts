import { TestApp } from './helpers/test-app';

const SIGN_UP = `mutation ($input: SignUpInput!) { signUp(input: $input) { user { id } } }`;
const LOG_IN = `mutation ($input: LogInInput!) { logIn(input: $input) { token } }`;
const PASSWORD = 'correct horse battery';

const signUpInput = (email: string) => ({ name: 'Someone', email, password: 'another long one' });

/**
 * signUp says CONFLICT for a registered email, on purpose (see docs/reference/api/users-and-auth.md):
 * the answer must tell a person why their account was not made, and the service sends no email
 * through which a generic answer could tell them instead. What bounds the enumeration this
 * allows is the sign-up limit, per client address and per email, as for logIn.
 */
describe('signUp and registered emails (e2e)', () => {
  describe('the answer', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await TestApp.start();
      await t.signUp({ email: 'ada@example.com' });
    });
    afterAll(() => t.close());

    it.each(['ada@example.com', 'ADA@Example.com', ' ＡＤＡ@example.com '])(
      'should be CONFLICT on email for %j, and write nothing',
      async (email) => {
        const [before] = await t.dataSource.query('SELECT COUNT(*) AS n FROM users');
        const response = await t.gql(SIGN_UP, { input: signUpInput(email) });
        expect(response.data?.signUp ?? null).toBeNull();
        expect(response.errors).toEqual([
          expect.objectContaining({
            message: 'That email is already registered.',
            extensions: { code: 'CONFLICT', field: 'email' },
          }),
        ]);
        expect(await t.dataSource.query('SELECT COUNT(*) AS n FROM users')).toEqual([before]);
      },
    );

    it('should sign up an email that is free', async () => {
      const response = await t.gql(SIGN_UP, { input: signUpInput('grace@example.com') });
      expect(response.errors).toBeUndefined();
      expect(response.data?.signUp.user.id).toEqual(expect.any(String));
    });

    it('should leave logIn generic: a wrong password reads the same for any email', async () => {
      const registered = await t.gql(LOG_IN, {
        input: { email: 'ada@example.com', password: 'not the password' },
      });
      const unknown = await t.gql(LOG_IN, {
        input: { email: 'nobody@example.com', password: 'not the password' },
      });
      expect(registered.errors).toEqual(unknown.errors);
      expect(registered.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    });
  });

  describe('the limit on probing', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await TestApp.start({
        env: { AUTH_RATE_LIMIT: '3', AUTH_RATE_LIMIT_WINDOW_MS: '60000', TRUST_PROXY: '1' },
      });
      // Registered from the test's own address: one attempt each on the emails' counters.
      for (const email of ['target@example.com', 'a@example.com', 'b@example.com']) {
        await t.gql(SIGN_UP, { input: { name: 'Owner', email, password: PASSWORD } });
      }
    });
    afterAll(() => t.close());

    const probe = async (email: string, from: string) => {
      const response = await t.http
        .post('/graphql')
        .set('content-type', 'application/json')
        .set('x-forwarded-for', from)
        .send({ query: SIGN_UP, variables: { input: signUpInput(email) } });
      return response.body.errors?.[0]?.extensions as { code?: string; retryAfter?: number };
    };

    it('should stop one address probing many emails at AUTH_RATE_LIMIT', async () => {
      const codes = [];
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']) {
        codes.push((await probe(email, '203.0.113.1'))?.code);
      }
      expect(codes).toEqual(['CONFLICT', 'CONFLICT', undefined, 'TOO_MANY_REQUESTS']);
    });

    it('should stop many addresses probing one email at AUTH_RATE_LIMIT, with retryAfter', async () => {
      const answers = [];
      for (const from of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
        answers.push(await probe('target@example.com', from));
      }
      expect(answers.map((answer) => answer?.code)).toEqual([
        'CONFLICT',
        'CONFLICT',
        'TOO_MANY_REQUESTS',
      ]);
      expect(answers[2].retryAfter).toBeGreaterThan(0);
    });
  });
});
