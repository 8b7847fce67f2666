import { toDate } from '../common/sql';
import { User, UserRole } from './user.entity';

/** The select list that {@link toUser} reads (never the password hash). */
export const USER_COLUMNS =
  'u.id, u.name, u.email, u.handle, u.avatar, u.role, u.token_version AS "tokenVersion", ' +
  'u.created_at AS "createdAt", u.updated_at AS "updatedAt"';

export interface UserRow {
  id: string;
  name: string;
  email: string;
  handle: string;
  avatar: string | null;
  role: UserRole;
  tokenVersion: number | string;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export function toUser(row: UserRow): User {
  return Object.assign(new User(), {
    ...row,
    tokenVersion: Number(row.tokenVersion),
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  });
}
