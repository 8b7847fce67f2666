import { UserRow, USER_COLUMNS } from './user.rows';
import { statement } from '../common/sql';

/** A user row with the password hash: only for checking a password. */
export type UserWithPasswordRow = UserRow & { passwordHash: string };

const WITH_PASSWORD = `${USER_COLUMNS}, u.password_hash AS "passwordHash"`;

/**
 * A user's row, locked until the transaction ends on PostgreSQL (`NO KEY UPDATE`: it serialises
 * the writes that count what one user did, not the rows that refer to the user); SQLite already
 * runs one transaction at a time. Null when the user is gone. For the feature statements that
 * count a user's uploads, reports or mails before they add one.
 */
export const lockUser = statement<{ id: string }, { id: string }>({
  sqlite: 'SELECT u.id FROM users u WHERE u.id = :id',
  postgres: 'SELECT u.id FROM users u WHERE u.id = :id FOR NO KEY UPDATE',
});

/** The statements of users. Only the two `WithPassword` reads select the password hash. */
export const usersSql = {
  byId: statement<{ id: string }, UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = :id`),
  byIds: statement<{ ids: readonly string[] }, UserRow>(
    `SELECT ${USER_COLUMNS} FROM users u WHERE u.id IN (:...ids)`,
  ),
  byHandle: statement<{ handle: string }, UserRow>(
    `SELECT ${USER_COLUMNS} FROM users u WHERE u.handle = :handle`,
  ),
  byEmailWithPassword: statement<{ email: string }, UserWithPasswordRow>(
    `SELECT ${WITH_PASSWORD} FROM users u WHERE u.email = :email`,
  ),
  byIdWithPassword: statement<{ id: string }, UserWithPasswordRow>(
    `SELECT ${WITH_PASSWORD} FROM users u WHERE u.id = :id`,
  ),
  first: statement<{ first: number }, UserRow>(
    `SELECT ${USER_COLUMNS} FROM users u ORDER BY u.id LIMIT :first`,
  ),
  after: statement<{ first: number; after: string }, UserRow>(
    `SELECT ${USER_COLUMNS} FROM users u WHERE u.id > :after ORDER BY u.id LIMIT :first`,
  ),
  takenHandles: statement<{ handles: readonly string[] }, { handle: string }>(
    'SELECT u.handle FROM users u WHERE u.handle IN (:...handles)',
  ),
  emailTaken: statement<{ email: string }, { yes: number }>(
    'SELECT 1 AS yes FROM users u WHERE u.email = :email LIMIT 1',
  ),
  insert: statement<{
    id: string;
    name: string;
    email: string;
    handle: string;
    avatar: string | null;
    passwordHash: string;
    role: string;
    tokenVersion: number;
    emailVerified: boolean;
    createdAt: Date;
    updatedAt: Date;
  }>(
    'INSERT INTO users (id, name, email, handle, avatar, password_hash, role, token_version, ' +
      'email_verified, created_at, updated_at) VALUES (:id, :name, :email, :handle, :avatar, ' +
      ':passwordHash, :role, :tokenVersion, :emailVerified, :createdAt, :updatedAt)',
  ),
  /**
   * Changes the name or handle (null keeps them) and, when `setAvatar`, the avatar: a URL or an
   * image, the other one null.
   */
  updateProfile: statement<{
    id: string;
    name: string | null;
    handle: string | null;
    setAvatar: boolean;
    avatar: string | null;
    avatarImageId: string | null;
    updatedAt: Date;
  }>(
    'UPDATE users SET name = COALESCE(:name, name), handle = COALESCE(:handle, handle), ' +
      'avatar = CASE WHEN :setAvatar THEN :avatar ELSE avatar END, ' +
      'avatar_image_id = CASE WHEN :setAvatar THEN :avatarImageId ELSE avatar_image_id END, ' +
      'updated_at = :updatedAt ' +
      'WHERE id = :id',
  ),
  /**
   * Sets a new password hash and revokes every token issued before, only while the token
   * version is still the one read when the current password was checked: of two changes that
   * race, one changes no row.
   */
  changePassword: statement<{
    id: string;
    passwordHash: string;
    tokenVersion: number;
    updatedAt: Date;
  }>(
    'UPDATE users SET password_hash = :passwordHash, token_version = token_version + 1, ' +
      'updated_at = :updatedAt WHERE id = :id AND token_version = :tokenVersion',
  ),
  /**
   * The admins, locked until the transaction ends on PostgreSQL, so that two demotions cannot
   * both count the other as the admin left.
   */
  lockAdmins: statement<object, { id: string }>({
    sqlite: "SELECT u.id FROM users u WHERE u.role = 'admin'",
    postgres: "SELECT u.id FROM users u WHERE u.role = 'admin' FOR UPDATE",
  }),
  setRole: statement<{ id: string; role: string; updatedAt: Date }>(
    'UPDATE users SET role = :role, updated_at = :updatedAt WHERE id = :id',
  ),
  ban: statement<{ id: string; at: Date; until: Date | null; reason: string }>(
    'UPDATE users SET banned_at = :at, banned_until = :until, ban_reason = :reason WHERE id = :id',
  ),
  unban: statement<{ id: string }>(
    'UPDATE users SET banned_at = NULL, banned_until = NULL, ban_reason = NULL ' +
      'WHERE id = :id AND banned_at IS NOT NULL',
  ),
  revokeTokens: statement<{ id: string }>(
    'UPDATE users SET token_version = token_version + 1 WHERE id = :id',
  ),
};
