import { MigrationInterface, QueryRunner } from 'typeorm';

import { parseAvatarUrl } from '../users/avatar-url';

/** Users read and written a page at a time, in id order. */
const USERS_PER_PAGE = 1_000;

/**
 * Applies the avatar rule of users/avatar-url.ts to the avatars stored before it: an avatar was
 * kept as typed, so one could hold credentials (`https://user:pass@host/…`), quotes, or name an
 * internal host. Each is parsed as a new one would be: one the rule takes is stored in its
 * normalised form, and one it refuses is removed (null, as an account without one). The rule is
 * the app's own function, run in JS; only the rows it changes are written.
 *
 * Reverted, nothing changes: what was typed before cannot be told from what was normalised.
 */
export class NormaliseAvatars1765004000000 implements MigrationInterface {
  name = 'NormaliseAvatars1765004000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const p = (n: number) => (postgres ? `$${n}` : '?');
    let after = '';
    for (;;) {
      const rows: Array<{ id: string; avatar: string }> = await queryRunner.query(
        `SELECT id, avatar FROM users WHERE avatar IS NOT NULL AND id > ${p(1)} ` +
          `ORDER BY id LIMIT ${USERS_PER_PAGE}`,
        [after],
      );
      for (const { id, avatar } of rows) {
        const parsed = parseAvatarUrl(avatar.trim());
        const kept = 'href' in parsed ? parsed.href : null;
        if (kept === avatar) continue;
        await queryRunner.query(`UPDATE users SET avatar = ${p(1)} WHERE id = ${p(2)}`, [kept, id]);
      }
      if (rows.length < USERS_PER_PAGE) return;
      after = rows[rows.length - 1].id;
    }
  }

  async down(): Promise<void> {
    // The avatars as typed are gone: see the class comment.
  }
}
