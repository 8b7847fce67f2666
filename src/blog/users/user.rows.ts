import { roleOf } from './roles';
import { User } from './user.entity';
import { prefixedColumns, toDate } from '../common/sql';

/** The select list that {@link toUser} reads (never the password hash). */
export const USER_COLUMNS =
  'u.id, u.name, u.email, u.handle, u.avatar, u.avatar_image_id AS "avatarImageId", u.role, ' +
  'u.token_version AS "tokenVersion", u.email_verified AS "emailVerified", ' +
  'u.created_at AS "createdAt", u.updated_at AS "updatedAt", u.banned_at AS "bannedAt", ' +
  'u.banned_until AS "bannedUntil", u.ban_reason AS "banReason"';

export interface UserRow {
  id: string;
  name: string;
  email: string;
  handle: string;
  avatar: string | null;
  avatarImageId: string | null;
  role: string;
  tokenVersion: number | string;
  /** A boolean on PostgreSQL, 1 or 0 on SQLite. */
  emailVerified: boolean | number;
  createdAt: Date | string;
  updatedAt: Date | string;
  bannedAt: Date | string | null;
  bannedUntil: Date | string | null;
  banReason: string | null;
}

export function toUser(row: UserRow): User {
  return Object.assign(new User(), {
    ...row,
    role: roleOf(row.role),
    tokenVersion: Number(row.tokenVersion),
    emailVerified: Boolean(row.emailVerified),
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
    bannedAt: toDate(row.bannedAt),
    bannedUntil: toDate(row.bannedUntil),
  });
}

/**
 * The user columns of {@link USER_COLUMNS} named `author.<field>`, for a statement that reads a
 * post's author beside the post (users aliased `u`); {@link toAuthor} reads them.
 */
export const AUTHOR_COLUMNS = prefixedColumns(USER_COLUMNS, 'author');

export type AuthorRow = { [K in keyof UserRow as `author.${K}`]: UserRow[K] };

export function toAuthor(row: AuthorRow): User {
  return toUser({
    id: row['author.id'],
    name: row['author.name'],
    email: row['author.email'],
    handle: row['author.handle'],
    avatar: row['author.avatar'],
    avatarImageId: row['author.avatarImageId'],
    role: row['author.role'],
    tokenVersion: row['author.tokenVersion'],
    emailVerified: row['author.emailVerified'],
    createdAt: row['author.createdAt'],
    updatedAt: row['author.updatedAt'],
    bannedAt: row['author.bannedAt'],
    bannedUntil: row['author.bannedUntil'],
    banReason: row['author.banReason'],
  });
}
