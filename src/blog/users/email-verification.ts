import { GraphQLError } from 'graphql';

import type { User } from './user.entity';
import { forbidden } from '../common/errors';

/** `extensions.reason` of the FORBIDDEN that refuses a write of an unverified account. */
export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED';

/**
 * The mutations an account whose address is not verified may still run, when verified addresses
 * are required: its own account (signing in and out, the password, the address and its
 * verification, deleting it), correcting the profile (a mistyped address is corrected there),
 * and its notifications' read marks. Everything else writes to the blog.
 */
export const OPEN_TO_UNVERIFIED: ReadonlySet<string> = new Set([
  'signUp',
  'logIn',
  'logOutEverywhere',
  'changePassword',
  'deleteAccount',
  'requestPasswordReset',
  'resetPassword',
  'requestEmailVerification',
  'verifyEmail',
  'updateProfile',
  'markNotificationsRead',
]);

/**
 * The refusal of a write by `viewer` when verified addresses are `required` and theirs is not
 * verified: FORBIDDEN with `extensions.reason` {@link EMAIL_NOT_VERIFIED}; null when the write may
 * go on (anonymous, verified, or not required). For every path that writes for a signed-in user:
 * the blog's mutations (beside the ban check) and its upload routes.
 */
export function unverifiedEmailRefusal(
  viewer: Pick<User, 'emailVerified'> | null | undefined,
  required: boolean,
): GraphQLError | null {
  if (!required || !viewer || viewer.emailVerified) return null;
  return forbidden(
    'Confirm your email address before writing: follow the link mailed to you, or ask for a new one with requestEmailVerification.',
    { reason: EMAIL_NOT_VERIFIED },
  );
}
