import { Post, User } from '../src/blog';
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

  describe('logOutEverywhere, deleteAccount and changePassword must run alone', () => {
    const titled = (title: string) => t.dataSource.getRepository(Post).countBy({ title });
    const userExists = (id: string) => t.dataSource.getRepository(User).countBy({ id });

    /** Expects the whole operation refused before anything ran: 400, BAD_REQUEST, no data. */
    async function expectRefused(query: string, variables: Record<string, unknown>, token: string) {
      const response = await t.http
        .post('/graphql')
        .set('content-type', 'application/json')
        .set('authorization', token)
        .send({ query, variables });
      expect(response.status).toBe(400);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors).toEqual([
        {
          message: expect.stringMatching(
            /^(logOutEverywhere|deleteAccount|changePassword) must be the only field of its operation/,
          ),
          extensions: { code: 'BAD_REQUEST' },
        },
      ]);
    }

    it.each([
      [
        'logOutEverywhere, then a write',
        `mutation { logOutEverywhere b: createPost(input: { title: "After log-out", content: "x" }) { id } }`,
      ],
      [
        'a write, then logOutEverywhere',
        `mutation { a: createPost(input: { title: "Before log-out", content: "x" }) { id } logOutEverywhere }`,
      ],
      [
        'logOutEverywhere in a fragment, a write beside it',
        `mutation { ...Out w: createPost(input: { title: "Beside a fragment", content: "x" }) { id } }
         fragment Out on Mutation { logOutEverywhere }`,
      ],
      [
        'logOutEverywhere and a write, both in a fragment',
        `mutation { ...Both } fragment Both on Mutation {
           logOutEverywhere createPost(input: { title: "In a fragment", content: "x" }) { id } }`,
      ],
      [
        'logOutEverywhere twice, under two aliases',
        `mutation { first: logOutEverywhere second: logOutEverywhere }`,
      ],
    ])('should refuse %s whole: no post, and the token still works', async (_, query) => {
      const user = await t.signUp();
      const posts = await t.dataSource.getRepository(Post).count();
      await expectRefused(query, {}, user.token);
      expect(await t.dataSource.getRepository(Post).count()).toBe(posts);
      expect(await t.gql(ME, {}, user.token)).toEqual({ data: { me: { id: user.user.id } } });
    });

    it.each([
      [
        'deleteAccount, then a write',
        `mutation ($p: String!) { deleteAccount(password: $p) createPost(input: { title: "Ghost", content: "x" }) { id } }`,
      ],
      [
        'deleteAccount, then a write that fails',
        `mutation ($p: String!) { deleteAccount(password: $p) deletePost(id: "nope") }`,
      ],
      [
        'a write, then deleteAccount under an alias',
        `mutation ($p: String!) { w: createPost(input: { title: "Ghost", content: "x" }) { id } bye: deleteAccount(password: $p) }`,
      ],
      [
        'deleteAccount in an inline fragment, then a write in a fragment',
        `mutation ($p: String!) { ... on Mutation { deleteAccount(password: $p) } ...Write }
         fragment Write on Mutation { createPost(input: { title: "Ghost", content: "x" }) { id } }`,
      ],
      [
        'deleteAccount twice, under two aliases',
        `mutation ($p: String!) { a: deleteAccount(password: $p) b: deleteAccount(password: $p) }`,
      ],
    ])(
      'should refuse %s whole: the account and its token stay, nothing is written',
      async (_, query) => {
        const user = await t.signUp();
        await expectRefused(query, { p: user.password }, user.token);
        expect(await userExists(user.user.id)).toBe(1);
        expect(await titled('Ghost')).toBe(0);
        expect(await t.gql(ME, {}, user.token)).toEqual({ data: { me: { id: user.user.id } } });
      },
    );

    it('should refuse changePassword beside a write: the old password and token still work', async () => {
      const user = await t.signUp();
      await expectRefused(
        `mutation ($input: ChangePasswordInput!) {
           changePassword(input: $input) { token }
           createPost(input: { title: "After the change", content: "x" }) { id }
         }`,
        { input: { currentPassword: user.password, newPassword: 'a brand new password' } },
        user.token,
      );
      expect(await titled('After the change')).toBe(0);
      expect(codeOf(await logIn(user, user.password))).toBeUndefined();
      expect(await t.gql(ME, {}, user.token)).toEqual({ data: { me: { id: user.user.id } } });
    });

    it('should still run each of them alone', async () => {
      const user = await t.signUp();
      expect(await t.gql(`mutation { out: logOutEverywhere }`, {}, user.token)).toEqual({
        data: { out: true },
      });
      expect(codeOf(await t.gql(ME, {}, user.token))).toBe('UNAUTHENTICATED');

      const leaving = await t.signUp();
      const response = await t.gql(
        `mutation ($p: String!) { ...Bye } fragment Bye on Mutation { deleteAccount(password: $p) }`,
        { p: leaving.password },
        leaving.token,
      );
      expect(response).toEqual({ data: { deleteAccount: leaving.user.id } });
      expect(await userExists(leaving.user.id)).toBe(0);
    });
  });
});
