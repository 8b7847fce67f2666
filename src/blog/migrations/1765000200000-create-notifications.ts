import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

import { idColumn, timestampColumn } from './column-types';

const cascadeTo = (table: string, column: string, name: string) =>
  new TableForeignKey({
    name,
    columnNames: [column],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });

/**
 * Notifications start from this migration on: what happened before it (follows, likes, comments,
 * publications) raised none, so there is nothing to backfill.
 */
export class CreateNotifications1765000200000 implements MigrationInterface {
  name = 'CreateNotifications1765000200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'notifications',
        columns: [
          idColumn('id', { isPrimary: true }),
          idColumn('recipient_id'),
          idColumn('actor_id'),
          { name: 'kind', type: 'varchar', length: '32' },
          idColumn('post_id', { isNullable: true }),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'read_at', { isNullable: true }),
        ],
        foreignKeys: [
          cascadeTo('users', 'recipient_id', 'FK_notifications_recipient'),
          cascadeTo('users', 'actor_id', 'FK_notifications_actor'),
          cascadeTo('posts', 'post_id', 'FK_notifications_post'),
        ],
        indices: [
          // A recipient's notifications, newest first: the order of the list and its cursor.
          new TableIndex({
            name: 'IDX_notifications_recipient',
            columnNames: ['recipient_id', 'id'],
          }),
          // The cascades from a deleted post or actor find their rows without reading them all.
          new TableIndex({ name: 'IDX_notifications_post', columnNames: ['post_id'] }),
          new TableIndex({ name: 'IDX_notifications_actor', columnNames: ['actor_id'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('notifications');
  }
}
