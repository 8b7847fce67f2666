import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';

import { idColumn, timestampColumn } from './column-types';

const USER_COLUMNS = (timestamp: string) => [
  `banned_at ${timestamp}`,
  `banned_until ${timestamp}`,
  'ban_reason varchar(500)',
];
const POST_COLUMNS = (timestamp: string) => [
  `comments_locked_at ${timestamp}`,
  `hidden_at ${timestamp}`,
  `hidden_published_at ${timestamp}`,
];

/**
 * Moderation (issue 65): the moderation log, whose entries outlive their targets and whose actor
 * goes to null with their account; a user's ban (since, until, why); a post's comment lock, and
 * its hiding by moderation (when, and the publication time it gets back when restored).
 */
export class Moderation1765007200000 implements MigrationInterface {
  name = 'Moderation1765007200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'datetime';
    for (const column of USER_COLUMNS(timestamp)) {
      await queryRunner.query(`ALTER TABLE users ADD COLUMN ${column}`);
    }
    for (const column of POST_COLUMNS(timestamp)) {
      await queryRunner.query(`ALTER TABLE posts ADD COLUMN ${column}`);
    }
    await queryRunner.createTable(
      new Table({
        name: 'moderation_log',
        columns: [
          idColumn('id', { isPrimary: true }),
          idColumn('actor_id', { isNullable: true }),
          { name: 'action', type: 'varchar', length: '32' },
          { name: 'target_type', type: 'varchar', length: '16' },
          idColumn('target_id'),
          { name: 'reason', type: 'varchar', length: '1000', isNullable: true },
          { name: 'summary', type: 'varchar', length: '200', isNullable: true },
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_moderation_log_actor',
            columnNames: ['actor_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('moderation_log');
    // A hidden post is published again, as it was.
    await queryRunner.query(
      'UPDATE posts SET published_at = hidden_published_at WHERE hidden_published_at IS NOT NULL',
    );
    for (const column of POST_COLUMNS('').reverse()) {
      await queryRunner.query(`ALTER TABLE posts DROP COLUMN ${column.split(' ')[0]}`);
    }
    for (const column of USER_COLUMNS('').reverse()) {
      await queryRunner.query(`ALTER TABLE users DROP COLUMN ${column.split(' ')[0]}`);
    }
  }
}
