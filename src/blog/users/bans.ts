import { GraphQLError } from 'graphql';

import { isAdmin, Role } from './roles';
import type { User } from './user.entity';
import { badUserInput, forbidden } from '../common/errors';

/** A ban in force: why, and until when (null: for good). */
export interface ActiveBan {
  reason: string;
  until: Date | null;
}

/** The ban of `user` in force at `now`, or null: none, or one that has ended. */
export function activeBan(
  user: Pick<User, 'bannedAt' | 'bannedUntil' | 'banReason'> | null | undefined,
  now = new Date(),
): ActiveBan | null {
  if (!user?.bannedAt) return null;
  if (user.bannedUntil && user.bannedUntil.getTime() <= now.getTime()) return null;
  return { reason: user.banReason ?? '', until: user.bannedUntil };
}

/**
 * The mutations a banned user may still run: signing in and out, their password (a reset by
 * mail included), their address's verification, their notifications' read marks, and deleting
 * their account. Everything else writes to the blog.
 */
export const OPEN_TO_BANNED: ReadonlySet<string> = new Set([
  'signUp',
  'logIn',
  'changePassword',
  'logOutEverywhere',
  'deleteAccount',
  'markNotificationsRead',
  'requestPasswordReset',
  'resetPassword',
  'requestEmailVerification',
  'verifyEmail',
]);

/** FORBIDDEN for a banned user's write, saying why and until when (`extensions.ban`). */
export function bannedError(ban: ActiveBan): GraphQLError {
  const until = ban.until ? `until ${ban.until.toISOString()}` : 'for good';
  return forbidden(`You are banned from writing ${until}: ${ban.reason}`, {
    ban: { reason: ban.reason, until: ban.until?.toISOString() ?? null },
  });
}

/**
 * Refuses a ban of `user` by `moderator` that the rules forbid: nobody bans themself
 * (BAD_USER_INPUT on `field`) or an admin, and only admins ban editors (FORBIDDEN).
 */
export function refuseForbiddenBan(user: User, moderator: User, field: string): void {
  if (user.id === moderator.id) throw badUserInput('You cannot ban yourself.', field);
  if (user.role === Role.ADMIN) {
    throw forbidden('Admins cannot be banned: change their role first.');
  }
  if (user.role === Role.EDITOR && !isAdmin(moderator)) throw forbidden('Only admins ban editors.');
}
