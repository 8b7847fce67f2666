import { Inject, Injectable, Logger } from '@nestjs/common';

import { accountEmailSql, TokenOwnerRow } from './account-email.sql';
import { accountMail, emailChangedMail } from './account-mails';
import {
  AccountTokenPurpose,
  hashAccountToken,
  isAccountTokenShaped,
  newAccountToken,
} from './account-tokens';
import { PreparedStatements, Sql, SqlRunner, toDate } from '../common/sql';
import { newId } from '../common/uuid';
import { linkHost, MailSettings } from '../mail/mail-options';
import { MAIL_SETTINGS, MailOutbox } from '../mail/mail-outbox';

/** How many mails of one kind an account gets in {@link MAIL_CAP_WINDOW_MS} at most. */
export const MAILS_PER_ACCOUNT = 5;
/** The window of {@link MAILS_PER_ACCOUNT}: an hour. */
export const MAIL_CAP_WINDOW_MS = 3_600_000;

/** The kind of the notice to a former address (see sendEmailChanged), as the outbox logs it. */
export const EMAIL_CHANGED = 'email_changed';

/** The account a mail goes to. */
export interface MailedAccount {
  id: string;
  name: string;
}

/**
 * What {@link AccountMail.sendWithinCap} did: queued the mail; sent nothing, the account having
 * had its {@link MAILS_PER_ACCOUNT} this hour (another may go in `retryAfterMs`); or sent nothing,
 * the account being gone.
 */
export type CappedMail =
  { outcome: 'queued' } | { outcome: 'capped'; retryAfterMs: number } | { outcome: 'no account' };

/**
 * The tokens of account e-mail and their mails: issuing a token (its hash stored, its mail
 * queued in the same transaction), counting what an account was sent, and using a token.
 */
@Injectable()
export class AccountMail {
  private readonly logger = new Logger('AccountMail');
  private readonly statements: PreparedStatements<typeof accountEmailSql>;

  constructor(
    private readonly sql: Sql,
    private readonly outbox: MailOutbox,
    @Inject(MAIL_SETTINGS) private readonly settings: MailSettings,
  ) {
    this.statements = sql.prepare(accountEmailSql);
  }

  /** Whether mail goes out; without it no token is issued and no mail queued. */
  get enabled(): boolean {
    return this.outbox.enabled;
  }

  /**
   * Issues a token of `purpose` to `account` and queues its mail to `email`, on `sql` (the
   * transaction of the change that sends it); call {@link queued} once it has committed.
   * Nothing when mail is off.
   */
  async send(
    sql: SqlRunner,
    purpose: AccountTokenPurpose,
    account: MailedAccount,
    email: string,
  ): Promise<void> {
    if (!this.enabled) return;
    const token = newAccountToken();
    const now = new Date();
    const ttlMs = this.ttlMs(purpose);
    const since = new Date(now.getTime() - MAIL_CAP_WINDOW_MS);
    await sql.run(this.statements.deleteSpent, { userId: account.id, purpose, now, since });
    await sql.run(this.statements.insertToken, {
      id: newId(),
      userId: account.id,
      purpose,
      tokenHash: hashAccountToken(token),
      email,
      expiresAt: new Date(now.getTime() + ttlMs),
      createdAt: now,
    });
    const link = this.link(purpose, token);
    const host = linkHost(this.settings.linkBaseUrl);
    const content = accountMail(purpose, { name: account.name, link, host, ttlMs });
    await this.outbox.enqueue(sql, { kind: purpose, to: email, ...content });
    if (this.settings.logLinks) this.logger.log(`Mail to ${email} (${purpose}): ${link}`);
  }

  /**
   * Queues, on `sql` (the transaction of the change), the notice to `formerEmail` that `account`
   * has moved to another address (see emailChangedMail); call {@link queued} once it has
   * committed. Nothing when mail is off.
   */
  async sendEmailChanged(
    sql: SqlRunner,
    account: MailedAccount,
    formerEmail: string,
  ): Promise<void> {
    if (!this.enabled) return;
    const host = linkHost(this.settings.linkBaseUrl);
    const content = emailChangedMail({ name: account.name, host });
    await this.outbox.enqueue(sql, { kind: EMAIL_CHANGED, to: formerEmail, ...content });
  }

  /** Call once the transaction of a {@link send} has committed: its mail goes out shortly. */
  queued(): void {
    this.outbox.queued();
  }

  /**
   * Issues a token of `purpose` to `account` and queues its mail to `email` (as {@link send}, in
   * a transaction of its own), unless the account was sent {@link MAILS_PER_ACCOUNT} of them in
   * the past hour. The count is read with the account's row locked, so that requests at once
   * cannot pass the limit together.
   */
  async sendWithinCap(
    purpose: AccountTokenPurpose,
    account: MailedAccount,
    email: string,
  ): Promise<CappedMail> {
    if (!this.enabled) return { outcome: 'queued' };
    const result = await this.sql.transaction(async (sql): Promise<CappedMail> => {
      if (!(await sql.one(this.statements.lockAccount, { id: account.id }))) {
        return { outcome: 'no account' };
      }
      const since = new Date(Date.now() - MAIL_CAP_WINDOW_MS);
      const row = await sql.one(this.statements.issuedSince, {
        userId: account.id,
        purpose,
        since,
      });
      if (Number(row?.count ?? 0) >= MAILS_PER_ACCOUNT) {
        const first = toDate(row?.first ?? null);
        const retryAfterMs = first ? first.getTime() + MAIL_CAP_WINDOW_MS - Date.now() : 0;
        return { outcome: 'capped', retryAfterMs };
      }
      await this.send(sql, purpose, account, email);
      return { outcome: 'queued' };
    });
    if (result.outcome === 'queued') this.queued();
    return result;
  }

  /** The owner of `token` if it may still be used for `purpose`; nothing changes. */
  async peek(purpose: AccountTokenPurpose, token: string): Promise<TokenOwnerRow | null> {
    if (!isAccountTokenShaped(token)) return null;
    const tokenHash = hashAccountToken(token);
    return this.sql.one(this.statements.live, { tokenHash, purpose, now: new Date() });
  }

  /**
   * Uses `token` on `sql`, with every other unused token of its kind of the same account: its
   * owner, or null when it is unknown, used or expired (then nothing changes). Of several uses
   * of one token at once, exactly one gets its owner.
   */
  async use(
    sql: SqlRunner,
    purpose: AccountTokenPurpose,
    token: string,
  ): Promise<TokenOwnerRow | null> {
    if (!isAccountTokenShaped(token)) return null;
    const now = new Date();
    const tokenHash = hashAccountToken(token);
    const owner = await sql.one(this.statements.use, { tokenHash, purpose, now });
    if (!owner) return null;
    await sql.run(this.statements.useAll, { userId: owner.userId, purpose, now });
    return owner;
  }

  private ttlMs(purpose: AccountTokenPurpose): number {
    return purpose === AccountTokenPurpose.PasswordReset
      ? this.settings.passwordResetTtlMs
      : this.settings.emailVerificationTtlMs;
  }

  /** The front-end page of `purpose` under the link base, with the token in its query. */
  private link(purpose: AccountTokenPurpose, token: string): string {
    const path =
      purpose === AccountTokenPurpose.PasswordReset
        ? this.settings.passwordResetPath
        : this.settings.emailVerificationPath;
    return `${this.settings.linkBaseUrl}${path}${path.includes('?') ? '&' : '?'}token=${token}`;
  }
}
