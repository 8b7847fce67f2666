import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';

import { accountEmailSql } from './account-email.sql';
import { AccountMail } from './account-mail.service';
import { AccountTokenPurpose } from './account-tokens';
import { PasswordService } from './password.service';
import { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { badUserInput, unauthenticated } from '../common/errors';
import { PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { countPasswordCheck } from '../limits/auth-throttler.guard';
import { canonicalIdentifier } from '../users/user-identifiers';
import type { User } from '../users/user.entity';

/** What updateProfile reads to change the address. */
export interface EmailChangeInput {
  email?: string | null;
  currentPassword?: string | null;
}

/**
 * A change of address through updateProfile: it needs the current password (counted as the
 * password checks of changePassword and deleteAccount are), leaves the new address unverified,
 * and mails it a verification link, in the profile change's own transaction; a verified former
 * address is told of the change.
 */
@Injectable()
export class EmailChanges {
  private readonly statements: PreparedStatements<typeof accountEmailSql>;

  constructor(
    private readonly sql: Sql,
    private readonly passwords: PasswordService,
    private readonly mail: AccountMail,
    @Inject(ThrottlerStorage) private readonly throttler: ThrottlerStorage,
    @Inject(BLOG_MODULE_OPTIONS) private readonly options: BlogModuleOptions,
  ) {
    this.statements = sql.prepare(accountEmailSql);
  }

  /**
   * The new address `input` asks for, once `currentPassword` is checked; null when it asks for
   * none (no `email`, or the current one). A missing or wrong password is BAD_USER_INPUT on
   * `input.currentPassword`; past the password-check limit, TOO_MANY_REQUESTS.
   */
  async checked(viewer: User, input: EmailChangeInput): Promise<string | null> {
    if (input.email == null) return null;
    const email = canonicalIdentifier(input.email);
    const account = await this.sql.one(this.statements.credentials, { id: viewer.id });
    if (!account) throw unauthenticated('The signed-in user no longer exists.');
    if (account.email === email) return null;
    const field = 'input.currentPassword';
    if (!input.currentPassword) {
      throw badUserInput('Changing the email needs your current password.', field);
    }
    await countPasswordCheck(this.throttler, this.options, viewer.id);
    if (!(await this.passwords.verify(account.passwordHash, input.currentPassword))) {
      throw badUserInput('The password is wrong.', field);
    }
    return email;
  }

  /**
   * Writes the new address, unverified, and queues its verification mail, on `sql`; and, when the
   * former address was verified (an unverified one was never shown to be the owner's), a notice
   * to it that the account has moved.
   */
  async apply(sql: SqlRunner, viewer: User, email: string): Promise<void> {
    await sql.run(this.statements.changeEmail, {
      id: viewer.id,
      email,
      verified: false,
      now: new Date(),
    });
    await this.mail.send(sql, AccountTokenPurpose.EmailVerification, viewer, email);
    if (viewer.emailVerified) await this.mail.sendEmailChanged(sql, viewer, viewer.email);
  }

  /**
   * Once the change has committed: its mail goes out, and the request's viewer is unverified
   * for the rest of its operation.
   */
  committed(viewer: User, email: string): void {
    this.mail.queued();
    viewer.email = email;
    viewer.emailVerified = false;
  }
}
