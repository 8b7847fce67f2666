import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { simpleParser } from 'mailparser';
import sharp from 'sharp';

import { CREATE_POST } from './helpers/documents';
import { ReceivedMail, TestSmtpServer } from './helpers/smtp-server';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';

const SITE = 'https://blog.example.com/journal';
const TOKEN = /[?&]token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/;
const INVALID = {
  message: 'This link is invalid or has expired; ask for a new one.',
  extensions: { code: 'BAD_USER_INPUT', field: 'token' },
};

const ME = '{ me { id email emailVerified } }';
const REQUEST_RESET = 'mutation ($email: String!) { requestPasswordReset(email: $email) }';
const RESET = `mutation ($token: String!, $newPassword: String!) {
  resetPassword(token: $token, newPassword: $newPassword) { token user { id email emailVerified } }
}`;
const REQUEST_VERIFICATION = 'mutation { requestEmailVerification }';
const VERIFY = `mutation ($token: String!) {
  verifyEmail(token: $token) { id email emailVerified }
}`;
const LOG_IN = 'mutation ($input: LogInInput!) { logIn(input: $input) { token } }';
const UPDATE_PROFILE = `mutation ($input: UpdateProfileInput!) {
  updateProfile(input: $input) { id name email emailVerified }
}`;
const RESET_SUBJECT = /^Reset your password/;
const VERIFY_SUBJECT = /^Confirm your email address/;
const CHANGED_SUBJECT = /^Your email address on blog\.example\.com was changed$/;

type Errors = GraphQLResponse['errors'];
const errorsOf = (response: GraphQLResponse) =>
  response.errors?.map(({ message, extensions }) => ({ message, extensions }));
const codeOf = (errors: Errors) => errors?.[0]?.extensions?.code;

/** Every token the tests read from a mail: none may reach a log line. */
const tokensSeen = new Set<string>();

/** The token of the link in `mail`, found in its text part, after checking both parts link it. */
function tokenOf(mail: ReceivedMail, page: string): string {
  const { text, html } = mail.parsed;
  const link = new RegExp(`${SITE.replace(/[./]/g, '\\$&')}${page}\\?token=[A-Za-z0-9_-]{43}`);
  const found = link.exec(text ?? '');
  expect(found).not.toBeNull();
  expect(html).toContain(`href="${found![0]}"`);
  const token = TOKEN.exec(found![0])![1];
  tokensSeen.add(token);
  return token;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('Account e-mail (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  /** The main app's log lines (pino JSON). */
  const logs: string[] = [];

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    t = await TestApp.start({
      env: { SMTP_URL: smtp.url(), SITE_URL: SITE, MAIL_RETRY_BASE_MS: '200', LOG_LEVEL: 'info' },
      logs: { write: (line) => logs.push(line) },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** The mails of `subject` to `user`, once every queued mail has been sent. */
  async function mailsOf(user: TestUser, subject: RegExp): Promise<ReceivedMail[]> {
    await t.fannedOut();
    return smtp.mailsTo(user.user.email).filter((mail) => subject.test(mail.parsed.subject ?? ''));
  }

  async function resetTokenFor(user: TestUser): Promise<string> {
    const before = (await mailsOf(user, RESET_SUBJECT)).length;
    expect(await t.data(REQUEST_RESET, { email: user.user.email })).toEqual({
      requestPasswordReset: true,
    });
    const mails = await mailsOf(user, RESET_SUBJECT);
    expect(mails).toHaveLength(before + 1);
    return tokenOf(mails[before], '/reset-password');
  }

  const logIn = (user: TestUser, password: string) =>
    t.gql<{ logIn: { token: string } }>(LOG_IN, { input: { email: user.user.email, password } });

  describe('requestPasswordReset and resetPassword', () => {
    it('should mail a link to SITE_URL + PASSWORD_RESET_PATH, as text and HTML, marked Auto-Submitted', async () => {
      const user = await t.signUp({ name: 'Ada <b>&</b> Co' });
      const token = await resetTokenFor(user);
      const [mail] = await mailsOf(user, RESET_SUBJECT);

      expect(mail.parsed.headers.get('auto-submitted')).toBe('auto-generated');
      expect(mail.parsed.subject).toBe('Reset your password on blog.example.com');
      expect(mail.parsed.text).toContain('Hello Ada <b>&</b> Co,');
      expect(mail.parsed.html).toContain('Hello Ada &lt;b&gt;&amp;&lt;/b&gt; Co,');
      expect(mail.parsed.html).not.toContain('<b>');
      expect(mail.parsed.messageId).toMatch(/^<[0-9a-f-]{36}@blog\.example\.com>$/);
      // Only the token's hash is kept.
      const rows: { token_hash: string }[] = await t.dataSource.query(
        'SELECT token_hash FROM account_tokens',
      );
      expect(rows.map((row) => row.token_hash)).toContain(sha256(token));
      expect(JSON.stringify(rows)).not.toContain(token);
      // The sent mail keeps no body: its link would reset the password.
      const outbox: { text: string | null; html: string | null; sent_at: unknown }[] =
        await t.dataSource.query('SELECT text, html, sent_at FROM mail_outbox');
      expect(outbox.length).toBeGreaterThan(0);
      for (const row of outbox) {
        expect(row).toEqual({ text: null, html: null, sent_at: expect.anything() });
      }
    });

    it('should set the password, revoke every earlier token, verify the address and sign in', async () => {
      const user = await t.signUp();
      const token = await resetTokenFor(user);
      const reset = await t.data<{
        resetPassword: {
          token: string;
          user: { id: string; email: string; emailVerified: boolean };
        };
      }>(RESET, { token, newPassword: 'a new password now' });

      expect(reset.resetPassword.user).toEqual({
        id: user.user.id,
        email: user.user.email,
        emailVerified: true,
      });
      expect(errorsOf(await t.gql(ME, {}, user.token))).toEqual([
        {
          message: 'The access token was revoked; sign in again.',
          extensions: { code: 'UNAUTHENTICATED' },
        },
      ]);
      expect(await t.data(ME, {}, `Bearer ${reset.resetPassword.token}`)).toEqual({
        me: { id: user.user.id, email: user.user.email, emailVerified: true },
      });
      expect(codeOf((await logIn(user, user.password)).errors)).toBe('UNAUTHENTICATED');
      expect((await logIn(user, 'a new password now')).errors).toBeUndefined();
    });

    it('should answer a used, an expired and an unknown token with one and the same BAD_USER_INPUT', async () => {
      const user = await t.signUp();
      const used = await resetTokenFor(user);
      await t.data(RESET, { token: used, newPassword: 'first new password' });
      const expired = await resetTokenFor(user);
      await t.dataSource.query(
        `UPDATE account_tokens SET expires_at = created_at WHERE token_hash = '${sha256(expired)}'`,
      );
      const unknown = randomBytes(32).toString('base64url');

      for (const token of [used, expired, unknown, 'not a token at all']) {
        const response = await t.gql(RESET, { token, newPassword: 'second new password' });
        expect(response.data).toBeNull();
        expect(errorsOf(response)).toEqual([INVALID]);
      }
      expect((await logIn(user, 'first new password')).errors).toBeUndefined();
    });

    it('should let exactly one of five racing resets with one token win', async () => {
      const user = await t.signUp();
      const token = await resetTokenFor(user);
      const passwords = [1, 2, 3, 4, 5].map((n) => `racing password ${n}`);
      const responses = await Promise.all(
        passwords.map((newPassword) => t.gql(RESET, { token, newPassword })),
      );

      const winners = responses.filter((response) => response.data?.resetPassword);
      expect(winners).toHaveLength(1);
      for (const response of responses.filter((r) => !r.data?.resetPassword)) {
        expect(errorsOf(response)).toEqual([INVALID]);
      }
      const won = passwords[responses.indexOf(winners[0])];
      expect((await logIn(user, won)).errors).toBeUndefined();
      for (const lost of passwords.filter((password) => password !== won)) {
        expect(codeOf((await logIn(user, lost)).errors)).toBe('UNAUTHENTICATED');
      }
    });

    it('should spend the other reset links of the account once one is used', async () => {
      const user = await t.signUp();
      const first = await resetTokenFor(user);
      const second = await resetTokenFor(user);
      await t.data(RESET, { token: second, newPassword: 'from the second link' });

      expect(errorsOf(await t.gql(RESET, { token: first, newPassword: 'from the first' }))).toEqual(
        [INVALID],
      );
    });

    it('should answer true for an unknown address, alike, and send nothing', async () => {
      const user = await t.signUp();
      await t.fannedOut();
      const before = smtp.received.length;
      const unknown = await t.reply(REQUEST_RESET, { email: 'nobody-here@example.com' });
      await t.fannedOut();

      expect(smtp.received).toHaveLength(before);
      const known = await t.reply(REQUEST_RESET, { email: user.user.email.toUpperCase() });
      expect(unknown).toEqual(known);
      expect(await mailsOf(user, RESET_SUBJECT)).toHaveLength(1);
    });

    it('should send an account at most 5 resets an hour, answering true past them', async () => {
      const user = await t.signUp();
      for (let i = 0; i < 7; i++) {
        expect(await t.data(REQUEST_RESET, { email: user.user.email })).toEqual({
          requestPasswordReset: true,
        });
      }

      expect(await mailsOf(user, RESET_SUBJECT)).toHaveLength(5);
    });

    it('should refuse a new password that breaks the sign-up rule, keeping the token', async () => {
      const user = await t.signUp();
      const token = await resetTokenFor(user);
      const response = await t.gql(RESET, { token, newPassword: 'short' });

      expect(codeOf(response.errors)).toBe('BAD_USER_INPUT');
      expect(response.errors![0].extensions?.field).toBe('newPassword');
      expect(
        (await t.gql(RESET, { token, newPassword: 'long enough now' })).errors,
      ).toBeUndefined();
    });
  });

  describe('address verification', () => {
    it('should mail a verification link at sign-up, and verify the address it was mailed to', async () => {
      const user = await t.signUp();
      const [mail] = await mailsOf(user, VERIFY_SUBJECT);
      expect(mail.parsed.headers.get('auto-submitted')).toBe('auto-generated');
      const token = tokenOf(mail, '/verify-email');
      expect(await t.data(ME, {}, user.token)).toEqual({
        me: { id: user.user.id, email: user.user.email, emailVerified: false },
      });

      // Anyone holding the link may follow it; the answer is the owner's view.
      expect(await t.data(VERIFY, { token })).toEqual({
        verifyEmail: { id: user.user.id, email: user.user.email, emailVerified: true },
      });
      expect((await t.data(ME, {}, user.token)).me.emailVerified).toBe(true);
      expect(errorsOf(await t.gql(VERIFY, { token }))).toEqual([INVALID]);
      expect(await t.data(REQUEST_VERIFICATION, {}, user.token)).toEqual({
        requestEmailVerification: false,
      });
    });

    it('should show emailVerified to the user and to admins only, false to everyone else', async () => {
      const user = await t.signUp();
      const [mail] = await mailsOf(user, VERIFY_SUBJECT);
      await t.data(VERIFY, { token: tokenOf(mail, '/verify-email') });
      const other = await t.signUp();
      const admin = await t.signUp();
      await t.makeAdmin(admin.user.id);
      const query = `{ user(id: "${user.user.id}") { email emailVerified } }`;

      expect((await t.data(query, {}, user.token)).user).toEqual({
        email: user.user.email,
        emailVerified: true,
      });
      expect((await t.data(query, {}, admin.token)).user).toEqual({
        email: user.user.email,
        emailVerified: true,
      });
      expect((await t.data(query, {}, other.token)).user).toEqual({
        email: '',
        emailVerified: false,
      });
      expect((await t.data(query)).user).toEqual({ email: '', emailVerified: false });
    });

    it('should mail a new link on request, and need a signed-in user', async () => {
      const user = await t.signUp();
      expect(await t.data(REQUEST_VERIFICATION, {}, user.token)).toEqual({
        requestEmailVerification: true,
      });
      const mails = await mailsOf(user, VERIFY_SUBJECT);
      expect(mails).toHaveLength(2);
      await t.data(VERIFY, { token: tokenOf(mails[1], '/verify-email') });

      // The first link was spent with the second.
      expect(errorsOf(await t.gql(VERIFY, { token: tokenOf(mails[0], '/verify-email') }))).toEqual([
        INVALID,
      ]);
      expect(codeOf((await t.gql(REQUEST_VERIFICATION)).errors)).toBe('UNAUTHENTICATED');
    });

    it('should refuse a sixth verification mail in an hour with TOO_MANY_REQUESTS', async () => {
      const user = await t.signUp();
      for (let i = 0; i < 4; i++) await t.data(REQUEST_VERIFICATION, {}, user.token);
      const refused = await t.gql(REQUEST_VERIFICATION, {}, user.token);

      expect(codeOf(refused.errors)).toBe('TOO_MANY_REQUESTS');
      expect(refused.errors![0].extensions).toEqual({
        code: 'TOO_MANY_REQUESTS',
        retryAfter: expect.any(Number),
      });
      expect(await mailsOf(user, VERIFY_SUBJECT)).toHaveLength(5);
    });

    it('should hold to 5 mails an hour when the requests come at once', async () => {
      const user = await t.signUp();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => t.gql(REQUEST_VERIFICATION, {}, user.token)),
      );
      const outcomes = answers.map((answer) =>
        answer.errors ? codeOf(answer.errors) : String(answer.data?.requestEmailVerification),
      );

      expect(outcomes.filter((outcome) => outcome === 'true')).toHaveLength(4);
      expect(outcomes.filter((outcome) => outcome === 'TOO_MANY_REQUESTS')).toHaveLength(4);
      expect(await mailsOf(user, VERIFY_SUBJECT)).toHaveLength(5);
    });
  });

  describe('changing the address with updateProfile', () => {
    it('should need the current password, and change nothing without it', async () => {
      const user = await t.signUp();
      const input = { name: 'Renamed', email: `new-${user.user.email}` };
      const missing = await t.gql(UPDATE_PROFILE, { input }, user.token);
      const wrong = await t.gql(
        UPDATE_PROFILE,
        { input: { ...input, currentPassword: 'not the password' } },
        user.token,
      );

      expect(errorsOf(missing)).toEqual([
        {
          message: 'Changing the email needs your current password.',
          extensions: { code: 'BAD_USER_INPUT', field: 'input.currentPassword' },
        },
      ]);
      expect(errorsOf(wrong)).toEqual([
        {
          message: 'The password is wrong.',
          extensions: { code: 'BAD_USER_INPUT', field: 'input.currentPassword' },
        },
      ]);
      expect((await t.data('{ me { name email } }', {}, user.token)).me).toEqual({
        name: user.user.name,
        email: user.user.email,
      });
    });

    it('should change it, unverified, mail the new address, and end the old links', async () => {
      const user = await t.signUp();
      const [oldVerification] = await mailsOf(user, VERIFY_SUBJECT);
      const reset = await resetTokenFor(user);
      const email = `moved-${user.user.email}`;
      const { updateProfile } = await t.data(
        UPDATE_PROFILE,
        { input: { email: email.toUpperCase(), currentPassword: user.password } },
        user.token,
      );

      expect(updateProfile).toEqual({
        id: user.user.id,
        name: user.user.name,
        email,
        emailVerified: false,
      });
      const moved = { ...user, user: { ...user.user, email } };
      const [mail] = await mailsOf(moved, VERIFY_SUBJECT);
      const token = tokenOf(mail, '/verify-email');
      expect(
        errorsOf(await t.gql(VERIFY, { token: tokenOf(oldVerification, '/verify-email') })),
      ).toEqual([INVALID]);
      expect(errorsOf(await t.gql(RESET, { token: reset, newPassword: 'hijacked!!' }))).toEqual([
        INVALID,
      ]);
      expect((await t.data(VERIFY, { token })).verifyEmail).toEqual({
        id: user.user.id,
        email,
        emailVerified: true,
      });
      expect((await logIn(moved, user.password)).errors).toBeUndefined();
    });

    it('should tell a verified former address of the change, with no link and not the new address', async () => {
      const verified = await t.signUp();
      const [signUpMail] = await mailsOf(verified, VERIFY_SUBJECT);
      await t.data(VERIFY, { token: tokenOf(signUpMail, '/verify-email') });
      const unverified = await t.signUp();
      for (const user of [verified, unverified]) {
        await t.data(
          UPDATE_PROFILE,
          { input: { email: `new-${user.user.email}`, currentPassword: user.password } },
          user.token,
        );
      }

      const [notice, ...more] = await mailsOf(verified, CHANGED_SUBJECT);
      expect(more).toEqual([]);
      expect(notice.parsed.headers.get('auto-submitted')).toBe('auto-generated');
      expect(notice.parsed.text).toContain('this address no longer signs in to it');
      for (const body of [notice.parsed.text, notice.parsed.html]) {
        expect(body).not.toContain('new-');
        expect(body).not.toContain('token=');
      }
      expect(await mailsOf(unverified, CHANGED_SUBJECT)).toEqual([]);
    });

    it('should refuse a taken address as CONFLICT, changing nothing else of the profile', async () => {
      const user = await t.signUp();
      const other = await t.signUp();
      const response = await t.gql(
        UPDATE_PROFILE,
        { input: { name: 'Not Kept', email: other.user.email, currentPassword: user.password } },
        user.token,
      );

      expect(codeOf(response.errors)).toBe('CONFLICT');
      expect((await t.data('{ me { name email } }', {}, user.token)).me).toEqual({
        name: user.user.name,
        email: user.user.email,
      });
    });

    it('should change nothing and need no password for the current address', async () => {
      const user = await t.signUp();
      const response = await t.data(
        UPDATE_PROFILE,
        { input: { name: 'Same Address', email: user.user.email } },
        user.token,
      );

      expect(response.updateProfile).toMatchObject({ name: 'Same Address', emailVerified: false });
      expect(await mailsOf(user, VERIFY_SUBJECT)).toHaveLength(1);
    });
  });

  describe('the outbox', () => {
    it('should try a mail again after the server fails, until it is taken', async () => {
      const user = await t.signUp();
      await t.fannedOut();
      smtp.refuseNext(2);
      await t.data(REQUEST_RESET, { email: user.user.email });
      await t.fannedOut();
      const [pending] = await t.dataSource.query(
        "SELECT attempts, last_error, sent_at FROM mail_outbox WHERE kind = 'password_reset' " +
          `AND recipient = '${user.user.email}'`,
      );
      expect(pending).toMatchObject({ sent_at: null });
      expect(Number(pending.attempts)).toBeGreaterThanOrEqual(1);
      expect(pending.last_error).toContain('451');

      const mail = await smtp.waitForMail(user.user.email, 1);
      expect(RESET_SUBJECT.test(mail.parsed.subject ?? '')).toBe(true);
      tokenOf(mail, '/reset-password');
      await t.fannedOut();
      const [sent] = await t.dataSource.query(
        "SELECT attempts, last_error, text FROM mail_outbox WHERE kind = 'password_reset' " +
          `AND recipient = '${user.user.email}'`,
      );
      expect({ ...sent, attempts: Number(sent.attempts) }).toEqual({
        attempts: 3,
        last_error: null,
        text: null,
      });
    });

    it('should give a mail up at once when the server refuses its recipient for good', async () => {
      const address = `refused-${Date.now()}@example.com`;
      smtp.refuseRecipient(address);
      await t.signUp({ email: address });
      await t.fannedOut();
      const [row] = await t.dataSource.query(
        `SELECT attempts, next_attempt_at, sent_at, text, last_error FROM mail_outbox WHERE recipient = '${address}'`,
      );

      expect({ ...row, attempts: Number(row.attempts) }).toMatchObject({
        attempts: 1,
        next_attempt_at: null,
        sent_at: null,
        text: null,
      });
      expect(row.last_error).toContain('550');
      expect(smtp.mailsTo(address)).toEqual([]);
      const gaveUp = logs
        .map((line) => JSON.parse(line) as { level: string; msg: string })
        .filter((line) => line.msg.startsWith('Gave up on mail'));
      expect(gaveUp).toEqual([
        expect.objectContaining({ level: 'error', msg: expect.stringContaining('550') }),
      ]);
      expect(gaveUp[0].msg).not.toContain(address);
    });

    it('should log the failed attempts as warnings, naming no address', async () => {
      const failed = logs
        .map((line) => JSON.parse(line) as { level: string; msg: string })
        .filter((line) => line.msg.startsWith('Could not send mail'));

      expect(failed.length).toBeGreaterThanOrEqual(2);
      for (const line of failed) {
        expect(line.level).toBe('warn');
        expect(line.msg).not.toMatch(/@example\.com/);
      }
    });
  });

  describe('with AUTH_RATE_LIMIT and REQUIRE_VERIFIED_EMAIL', () => {
    let limited: TestApp;

    beforeAll(async () => {
      limited = await TestApp.start({
        env: {
          SMTP_URL: smtp.url(),
          SITE_URL: SITE,
          AUTH_RATE_LIMIT: '3',
          TRUST_PROXY: '1',
          REQUIRE_VERIFIED_EMAIL: 'true',
        },
      });
    });
    afterAll(() => limited?.close());

    /** Sends an operation from the client address `from`, as the proxy forwards it. */
    async function from<T = Record<string, any>>(
      address: string,
      query: string,
      variables: Record<string, unknown> = {},
      token?: string,
    ): Promise<GraphQLResponse<T>> {
      const request = limited.http
        .post('/graphql')
        .set('content-type', 'application/json')
        .set('x-forwarded-for', address);
      if (token) request.set('authorization', token);
      return (await request.send({ query, variables })).body as GraphQLResponse<T>;
    }

    async function signUpFrom(address: string): Promise<TestUser> {
      const email = `limited-${randomBytes(4).toString('hex')}@example.com`;
      const password = 'correct horse battery';
      const response = await from<{ signUp: { token: string; user: TestUser['user'] } }>(
        address,
        'mutation ($input: SignUpInput!) { signUp(input: $input) { token user { id name email handle } } }',
        { input: { name: 'Limited', email, password } },
      );
      const { token, user } = response.data!.signUp;
      return { token: `Bearer ${token}`, user, password };
    }

    it('should limit requestPasswordReset per email, alike for a known and an unknown one', async () => {
      const user = await signUpFrom('10.0.1.1');
      const answers = async (email: string) => {
        const codes: (string | undefined)[] = [];
        for (const address of ['10.0.2.1', '10.0.2.2', '10.0.2.3', '10.0.2.4']) {
          const response = await from(address, REQUEST_RESET, { email });
          codes.push(codeOf(response.errors) ?? String(response.data?.requestPasswordReset));
        }
        return codes;
      };

      expect(await answers(user.user.email)).toEqual(['true', 'true', 'true', 'TOO_MANY_REQUESTS']);
      expect(await answers('nobody-known@example.com')).toEqual([
        'true',
        'true',
        'true',
        'TOO_MANY_REQUESTS',
      ]);
    });

    it('should limit requestPasswordReset per client address', async () => {
      const codes: (string | undefined)[] = [];
      for (const n of [1, 2, 3, 4]) {
        const response = await from('10.0.3.1', REQUEST_RESET, { email: `probe${n}@example.com` });
        codes.push(codeOf(response.errors) ?? String(response.data?.requestPasswordReset));
      }

      expect(codes).toEqual(['true', 'true', 'true', 'TOO_MANY_REQUESTS']);
    });

    it('should refuse the writes of an unverified account with FORBIDDEN EMAIL_NOT_VERIFIED, until verified', async () => {
      const user = await signUpFrom('10.0.4.1');
      const post = { input: { title: 'Unverified', content: 'Not yet.' } };
      const refused = await from('10.0.4.1', CREATE_POST, post, user.token);

      expect(refused.data).toBeNull();
      expect(refused.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining('Confirm your email address'),
          extensions: { code: 'FORBIDDEN', reason: 'EMAIL_NOT_VERIFIED' },
        }),
      ]);
      const [{ count }] = await limited.dataSource.query(
        `SELECT COUNT(*) AS count FROM posts WHERE author_id = '${user.user.id}'`,
      );
      expect(Number(count)).toBe(0);

      // The upload route keeps the same rule.
      const png = await sharp({
        create: { width: 8, height: 8, channels: 3, background: '#808080' },
      })
        .png()
        .toBuffer();
      const uploadFrom = (address: string) =>
        limited.http
          .post('/images')
          .set('authorization', user.token)
          .set('x-forwarded-for', address)
          .attach('file', png, 'a.png');
      const refusedUpload = await uploadFrom('10.0.4.1');
      expect(refusedUpload.status).toBe(403);
      expect(refusedUpload.body).toEqual({
        error: expect.objectContaining({ code: 'FORBIDDEN', reason: 'EMAIL_NOT_VERIFIED' }),
      });

      // The account's own mutations stay open.
      const profile = await from(
        '10.0.4.1',
        UPDATE_PROFILE,
        { input: { name: 'Still Unverified' } },
        user.token,
      );
      expect(profile.errors).toBeUndefined();
      expect((await from('10.0.4.1', REQUEST_VERIFICATION, {}, user.token)).errors).toBeUndefined();

      await limited.fannedOut();
      const [mail] = smtp.mailsTo(user.user.email);
      const token = tokenOf(mail, '/verify-email');
      expect((await from('10.0.4.2', VERIFY, { token })).errors).toBeUndefined();
      const created = await from('10.0.4.1', CREATE_POST, post, user.token);
      expect(created.errors).toBeUndefined();
      expect((await uploadFrom('10.0.4.1')).status).toBe(201);
    });
  });

  describe('without SMTP_URL', () => {
    it('should write each mail as an .eml file under DATA_DIR/mail that a mail parser reads', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'blog-mail-'));
      const files = await TestApp.start({ dataDir, env: { SMTP_URL: undefined, SITE_URL: SITE } });
      try {
        const user = await files.signUp();
        await files.fannedOut();
        const written = readdirSync(join(dataDir, 'mail'));
        expect(written).toEqual([expect.stringMatching(/^[0-9a-f-]{36}\.eml$/)]);
        const mail = await simpleParser(readFileSync(join(dataDir, 'mail', written[0])));

        expect(mail.to).toMatchObject({ text: user.user.email });
        expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
        const token = tokenOf(
          { to: [user.user.email], parsed: mail, secure: false },
          '/verify-email',
        );
        expect((await files.gql(VERIFY, { token })).errors).toBeUndefined();
      } finally {
        await files.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });

  it('should never log a token of a mail, at any level', () => {
    expect(tokensSeen.size).toBeGreaterThan(10);
    const leaked = logs.filter((line) => [...tokensSeen].some((token) => line.includes(token)));
    expect(leaked).toEqual([]);
  });

  describe('a server on this machine that offers STARTTLS', () => {
    let secureServer: TestSmtpServer;

    beforeAll(async () => {
      secureServer = await TestSmtpServer.start({ startTls: true });
    });
    afterAll(() => secureServer?.close());

    async function firstMailWith(smtpUrl: string): Promise<ReceivedMail> {
      const app = await TestApp.start({ env: { SMTP_URL: smtpUrl, SITE_URL: SITE } });
      try {
        const user = await app.signUp();
        await app.fannedOut();
        const [mail] = secureServer.mailsTo(user.user.email);
        tokenOf(mail, '/verify-email');
        return mail;
      } finally {
        await app.close();
      }
    }

    it('should upgrade with STARTTLS, trusting a self-signed certificate on this machine', async () => {
      expect((await firstMailWith(secureServer.url())).secure).toBe(true);
    });

    it('should send in plain SMTP when the URL turns TLS off', async () => {
      expect((await firstMailWith(secureServer.url('ignoreTLS=true'))).secure).toBe(false);
    });
  });
});
