import { TestApp, TestUser } from './helpers/test-app';
import { makeAdmin } from '../src/cli/make-admin';

describe('npm run user:admin (e2e)', () => {
  let t: TestApp;
  let operator: TestUser;
  let member: TestUser;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    t = await TestApp.start();
    operator = await t.signUp({ email: 'operator@example.com' });
    member = await t.signUp({ email: 'member@example.com' });
    env = { DATABASE_URL: t.databaseUrl };
  });
  afterAll(() => t.close());

  /** What the operator sees of the member's email: only admins see other people's. */
  const memberEmailSeenByOperator = async () =>
    (
      await t.data(
        `query ($id: ID!) { user(id: $id) { email } }`,
        { id: member.user.id },
        operator.token,
      )
    ).user.email;

  it('should make the user with that email an admin, who then has admin rights', async () => {
    expect(await memberEmailSeenByOperator()).toBe('');
    const result = await makeAdmin(['Operator@Example.com'], env);
    expect(result).toEqual({ code: 0, message: expect.stringContaining('is now an admin') });
    expect(await memberEmailSeenByOperator()).toBe('member@example.com');
  });

  it('should take the role back with --revoke, matching the email as sign-up stores it', async () => {
    expect((await makeAdmin(['ＯＰＥＲＡＴＯＲ@example.com', '--revoke'], env)).code).toBe(0);
    expect(await memberEmailSeenByOperator()).toBe('');
  });

  it('should fail with a message for an unknown email or a missing argument', async () => {
    expect(await makeAdmin(['nobody@example.com'], env)).toEqual({
      code: 1,
      message: 'No user has the email nobody@example.com.',
    });
    expect((await makeAdmin([], env)).code).toBe(2);
  });
});
