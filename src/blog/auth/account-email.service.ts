import { Injectable } from '@nestjs/common';

import { accountEmailSql } from './account-email.sql';
import { AccountMail, MAILS_PER_ACCOUNT } from './account-mail.service';
import { AccountTokenPurpose } from './account-tokens';
import { AuthService } from './auth.service';
import { AuthPayload } from './dto/auth-payload.type';
import { PasswordService } from './password.service';
import { badUserInput, tooManyRequests, unauthenticated } from '../common/errors';
import { PreparedStatements, Sql } from '../common/sql';
import { canonicalIdentifier } from '../users/user-identifiers';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Viewer } from '../users/viewer';

/** The one answer to a token that is unknown, used, expired, or whose address has changed. */
export const INVALID_ACCOUNT_TOKEN = 'This link is invalid or has expired; ask for a new one.';

const invalidToken = () => badUserInput(INVALID_ACCOUNT_TOKEN, 'token');

/**
 * Password resets and address verification: the rules of the four account e-mail mutations.
 * Tokens and their mails are {@link AccountMail}'s.
 */
@Injectable()
export class AccountEmailService {
  private readonly statements: PreparedStatements<typeof accountEmailSql>;

  constructor(
    private readonly sql: Sql,
    private readonly mail: AccountMail,
    private readonly auth: AuthService,
    private readonly users: UsersService,
    private readonly passwords: PasswordService,
  ) {
    this.statements = sql.prepare(accountEmailSql);
  }

  /**
   * Mails a password reset link to the account of `email`, if there is one. True whatever the
   * address: the answer says nothing of the account, nor does its time (the mail is queued, not
   * sent). An account sent {@link MAILS_PER_ACCOUNT} resets in the past hour gets no more; the
   * answer is true all the same.
   */
  async requestPasswordReset(email: string): Promise<boolean> {
    const purpose = AccountTokenPurpose.PasswordReset;
    if (!this.mail.enabled) return true;
    const account = await this.sql.one(this.statements.byEmail, {
      email: canonicalIdentifier(email),
    });
    if (!account) return true;
    await this.mail.sendWithinCap(purpose, account, account.email);
    return true;
  }

  /**
   * Sets the password of the account that `token` was mailed to, revokes every token issued to
   * it before (as logOutEverywhere), marks its address verified (the link reached it) and signs
   * it in. The token is used up, with every other reset token of the account. An unknown, used
   * or expired token, or one mailed to an address the account no longer has, is one and the same
   * BAD_USER_INPUT; of several resets racing with one token, exactly one wins.
   */
  async resetPassword(token: string, newPassword: string): Promise<AuthPayload> {
    const purpose = AccountTokenPurpose.PasswordReset;
    // A look first, so that a wrong token costs no password hash.
    if (!(await this.mail.peek(purpose, token))) throw invalidToken();
    const passwordHash = await this.passwords.hash(newPassword);
    const userId = await this.sql.transaction(async (sql) => {
      const owner = await this.mail.use(sql, purpose, token);
      if (!owner) throw invalidToken();
      const changed = await sql.run(this.statements.resetPassword, {
        ...owner,
        passwordHash,
        verified: true,
        now: new Date(),
      });
      if (changed === 0) throw invalidToken();
      return owner.userId;
    });
    const user = await this.users.findById(userId);
    if (!user) throw invalidToken();
    return this.auth.issueToken(user);
  }

  /**
   * Mails the viewer a link that verifies their address: true once queued, false when it is
   * verified already or the service sends no mail. Past {@link MAILS_PER_ACCOUNT} in an hour,
   * TOO_MANY_REQUESTS.
   */
  async requestEmailVerification(viewer: Viewer): Promise<boolean> {
    const purpose = AccountTokenPurpose.EmailVerification;
    if (!viewer) throw unauthenticated('You must be signed in to verify your email address.');
    const user = await this.users.findById(viewer.id);
    if (!user) throw unauthenticated('The signed-in user no longer exists.');
    if (user.emailVerified || !this.mail.enabled) return false;
    const sent = await this.mail.sendWithinCap(purpose, user, user.email);
    if (sent.outcome === 'no account') {
      throw unauthenticated('The signed-in user no longer exists.');
    }
    if (sent.outcome === 'capped') {
      const retryAfter = Math.max(1, Math.ceil(sent.retryAfterMs / 1000));
      throw tooManyRequests(
        `${MAILS_PER_ACCOUNT} verification mails were sent this hour; try again in ${retryAfter} s.`,
        retryAfter,
      );
    }
    return true;
  }

  /**
   * Marks verified the address that `token` was mailed to, if the account still has it, and
   * uses the token up with the account's other verification tokens. Whoever holds the link may
   * follow it, signed in or not. The same BAD_USER_INPUT as {@link resetPassword} otherwise.
   */
  async verifyEmail(token: string): Promise<User> {
    const userId = await this.sql.transaction(async (sql) => {
      const owner = await this.mail.use(sql, AccountTokenPurpose.EmailVerification, token);
      if (!owner) throw invalidToken();
      const verified = { ...owner, verified: true, now: new Date() };
      if ((await sql.run(this.statements.verify, verified)) === 0) throw invalidToken();
      return owner.userId;
    });
    const user = await this.users.findById(userId);
    if (!user) throw invalidToken();
    return user;
  }
}
