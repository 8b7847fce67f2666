import { statement } from '../common/sql';
import { lockUser } from '../users/users.sql';

/** A token's owner and the address it was mailed to. */
export interface TokenOwnerRow {
  userId: string;
  email: string;
}

const LIVE =
  'token_hash = :tokenHash AND purpose = :purpose AND used_at IS NULL AND expires_at > :now';

/**
 * The statements of account e-mail: tokens (issued, looked at, used), and the writes to `users`
 * that a used token makes. A token is used by one conditional UPDATE that names what it needs
 * (unused, unexpired), so of several requests with one token exactly one changes the row.
 */
export const accountEmailSql = {
  insertToken: statement<{
    id: string;
    userId: string;
    purpose: string;
    tokenHash: string;
    email: string;
    expiresAt: Date;
    createdAt: Date;
  }>(
    'INSERT INTO account_tokens (id, user_id, purpose, token_hash, email, expires_at, ' +
      'created_at) VALUES (:id, :userId, :purpose, :tokenHash, :email, :expiresAt, :createdAt)',
  ),
  /** The user's expired tokens of `purpose` made before `since`: no limit counts them any more. */
  deleteSpent: statement<{ userId: string; purpose: string; now: Date; since: Date }>(
    'DELETE FROM account_tokens WHERE user_id = :userId AND purpose = :purpose ' +
      'AND created_at < :since AND expires_at <= :now',
  ),
  /** The account's row, locked, so that its mails are counted and issued one at a time. */
  lockAccount: lockUser,
  /** Tokens of `purpose` issued to the user since `since`, for the limit per account. */
  issuedSince: statement<
    { userId: string; purpose: string; since: Date },
    { count: number | string; first: Date | string | null }
  >(
    'SELECT COUNT(*) AS count, MIN(t.created_at) AS first FROM account_tokens t ' +
      'WHERE t.user_id = :userId AND t.purpose = :purpose AND t.created_at > :since',
  ),
  /** The owner of a token that may still be used; nothing changes. */
  live: statement<{ tokenHash: string; purpose: string; now: Date }, TokenOwnerRow>(
    `SELECT user_id AS "userId", email FROM account_tokens WHERE ${LIVE}`,
  ),
  /** Uses a token: changes its row only if it is still unused and unexpired. */
  use: statement<{ tokenHash: string; purpose: string; now: Date }, TokenOwnerRow>(
    `UPDATE account_tokens SET used_at = :now WHERE ${LIVE} RETURNING user_id AS "userId", email`,
  ),
  /** Spends every other unused token of `purpose` of the user: one use ends them all. */
  useAll: statement<{ userId: string; purpose: string; now: Date }>(
    'UPDATE account_tokens SET used_at = :now ' +
      'WHERE user_id = :userId AND purpose = :purpose AND used_at IS NULL',
  ),
  /** An account by its (canonical) address, for a reset request. */
  byEmail: statement<{ email: string }, { id: string; name: string; email: string }>(
    'SELECT u.id, u.name, u.email FROM users u WHERE u.email = :email',
  ),
  /** The password hash and address of an account, to check a change of address. */
  credentials: statement<{ id: string }, { passwordHash: string; email: string }>(
    'SELECT u.password_hash AS "passwordHash", u.email FROM users u WHERE u.id = :id',
  ),
  /**
   * Sets the password of a reset, revokes every token issued before, and marks the address
   * verified (the reset link reached it), while the account still has the address it was mailed
   * to.
   */
  resetPassword: statement<{
    userId: string;
    email: string;
    passwordHash: string;
    verified: boolean;
    now: Date;
  }>(
    'UPDATE users SET password_hash = :passwordHash, token_version = token_version + 1, ' +
      'email_verified = :verified, updated_at = :now WHERE id = :userId AND email = :email',
  ),
  /** Marks the address verified, while the account still has it. */
  verify: statement<{ userId: string; email: string; verified: boolean; now: Date }>(
    'UPDATE users SET email_verified = :verified, updated_at = :now ' +
      'WHERE id = :userId AND email = :email',
  ),
  /** A new address, not verified yet. */
  changeEmail: statement<{ id: string; email: string; verified: boolean; now: Date }>(
    'UPDATE users SET email = :email, email_verified = :verified, updated_at = :now ' +
      'WHERE id = :id',
  ),
};
