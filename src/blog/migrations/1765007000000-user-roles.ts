import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** The columns of a post's review, on SQLite and PostgreSQL. */
const REVIEW_COLUMNS = (timestamp: string) => [
  'review_state varchar(16)',
  `review_requested_at ${timestamp}`,
  'rejection_reason varchar(500)',
];

/**
 * Roles and editorial review (issue 65). Users had the role `user` or `admin`: every `user`
 * becomes an `author` (who publishes their own posts, as every user did), every `admin` stays
 * one, and new rows default to `author`. Posts get their review: its state (null, or
 * `AWAITING_REVIEW` or `REJECTED`), when it was last submitted, and why it was rejected, with
 * the index the review queue reads. Reverting maps `editor`, `author` and `contributor` back to
 * `user` and drops the review.
 */
export class UserRoles1765007000000 implements MigrationInterface {
  name = 'UserRoles1765007000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    await queryRunner.query(`UPDATE users SET role = 'author' WHERE role <> 'admin'`);
    if (postgres) {
      await queryRunner.query(`ALTER TABLE users ALTER COLUMN role SET DEFAULT 'author'`);
    } else {
      // SQLite changes a default by rebuilding the table. Its foreign keys are off while
      // migrations run (TypeORM turns them off before a migration's transaction), so the rows
      // that point to users stay.
      await queryRunner.changeColumn(
        'users',
        'role',
        new TableColumn({ name: 'role', type: 'varchar', length: '16', default: "'author'" }),
      );
    }
    // Added in place: rebuilding posts would drop the triggers of SQLite's search index.
    for (const column of REVIEW_COLUMNS(postgres ? 'timestamptz' : 'datetime')) {
      await queryRunner.query(`ALTER TABLE posts ADD COLUMN ${column}`);
    }
    await queryRunner.query(
      'CREATE INDEX "IDX_posts_review" ON posts (review_state, review_requested_at, id)',
    );
  }

  /**
   * On SQLite the default of `users.role` stays `author`: a revert runs inside its transaction,
   * where foreign keys cannot be turned off, and rebuilding users there would delete every row
   * that points to one. The code before roles writes the role of every new user itself.
   */
  async down(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    await queryRunner.query('DROP INDEX "IDX_posts_review"');
    for (const column of REVIEW_COLUMNS('').reverse()) {
      await queryRunner.query(`ALTER TABLE posts DROP COLUMN ${column.split(' ')[0]}`);
    }
    if (postgres) {
      await queryRunner.query(`ALTER TABLE users ALTER COLUMN role SET DEFAULT 'user'`);
    }
    await queryRunner.query(`UPDATE users SET role = 'user' WHERE role <> 'admin'`);
  }
}
