import { statement } from '../common/sql';

/**
 * Deleting an account is deleting the user's row: every foreign key to users and posts is ON
 * DELETE CASCADE, so their posts (with those posts' comments and likes), their comments, likes
 * and follows both ways go with it, in the same statement (test/account-deletion.e2e-spec.ts),
 * and so do the rows of their images, whose files AuthService.deleteAccount removes after.
 */
export const deleteAccountSql = {
  user: statement<{ id: string }>('DELETE FROM users WHERE id = :id'),
};
