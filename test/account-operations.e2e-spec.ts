import { TestApp, TestUser } from './helpers/test-app';

const ME = `{ me { id } }`;
const LOG_IN = `mutation ($input: LogInInput!) { logIn(input: $input) { token } }`;
const CHANGE_PASSWORD = `mutation ($input: ChangePasswordInput!) {
  changePassword(input: $input) { token user { id } }
}`;

type Response = Awaited<ReturnType<TestApp['gql']>>;
const codeOf = (response: Response) => response.errors?.[0]?.extensions?.code;

describe('Account operations hold under races and inside one operation (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
  });
  afterAll(() => t.close());

  const logIn = (user: TestUser, password: string) =>
    t.gql<{ logIn: { token: string } }>(LOG_IN, { input: { email: user.user.email, password } });

  describe('two changePassword calls that race with the same current password', () => {
    it.each([1, 2, 3, 4, 5, 6])(
      'should let exactly one win; the other is CONFLICT and changes nothing (round %i)',
      async () => {
        const user = await t.signUp();
        const passwords = ['first new password', 'second new password'];
        const responses = await Promise.all(
          passwords.map((newPassword) =>
            t.gql<{ changePassword: { token: string; user: { id: string } } }>(
              CHANGE_PASSWORD,
              { input: { currentPassword: user.password, newPassword } },
              user.token,
            ),
          ),
        );

        const winners = responses.filter((response) => response.data?.changePassword);
        const losers = responses.filter((response) => !response.data?.changePassword);
        expect(winners).toHaveLength(1);
        expect(losers.map(codeOf)).toEqual(['CONFLICT']);
        expect(losers[0].data).toBeNull();
        const won = passwords[responses.indexOf(winners[0])];
        const lost = passwords[responses.indexOf(losers[0])];

        // The winner's token works; the old one and the loser's password do not.
        const token = `Bearer ${winners[0].data!.changePassword.token}`;
        expect(await t.gql(ME, {}, token)).toEqual({ data: { me: { id: user.user.id } } });
        expect(codeOf(await t.gql(ME, {}, user.token))).toBe('UNAUTHENTICATED');
        expect(codeOf(await logIn(user, won))).toBeUndefined();
        expect(codeOf(await logIn(user, lost))).toBe('UNAUTHENTICATED');
        expect(codeOf(await logIn(user, user.password))).toBe('UNAUTHENTICATED');
        // One change, one revocation: the winner's token is at the version after the first.
        const [row] = await t.dataSource.query(
          `SELECT token_version AS "tokenVersion" FROM users WHERE id = '${user.user.id}'`,
        );
        expect(Number(row.tokenVersion)).toBe(1);
      },
    );
  });
});
