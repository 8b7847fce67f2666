import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

import { idColumn, timestampColumn } from './column-types';

const foreignKey = (column: string, table: string, name: string, onDelete: string) =>
  new TableForeignKey({
    name,
    columnNames: [column],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete,
  });

/**
 * Reports (issue 65): `reports`, one per reporter and target, grouped by target into
 * `moderation_items`, the moderation queue, where a target has at most one open item (a partial
 * unique index, on both databases). Items go with their post, reports with their item and with
 * their reporter's account.
 */
export class CreateReports1765007300000 implements MigrationInterface {
  name = 'CreateReports1765007300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'moderation_items',
        columns: [
          idColumn('id', { isPrimary: true }),
          { name: 'target_type', type: 'varchar', length: '16' },
          idColumn('target_id'),
          idColumn('post_id'),
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'action', type: 'varchar', length: '16', isNullable: true },
          idColumn('resolved_by', { isNullable: true }),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'resolved_at', { isNullable: true }),
        ],
        foreignKeys: [
          foreignKey('post_id', 'posts', 'FK_moderation_items_post', 'CASCADE'),
          foreignKey('resolved_by', 'users', 'FK_moderation_items_resolved_by', 'SET NULL'),
        ],
        indices: [
          new TableIndex({
            name: 'UQ_moderation_items_open_target',
            columnNames: ['target_type', 'target_id'],
            isUnique: true,
            where: "status = 'open'",
          }),
          new TableIndex({ name: 'IDX_moderation_items_status', columnNames: ['status', 'id'] }),
          new TableIndex({
            name: 'IDX_moderation_items_resolved',
            columnNames: ['status', 'resolved_at', 'id'],
          }),
          new TableIndex({ name: 'IDX_moderation_items_post', columnNames: ['post_id'] }),
          new TableIndex({
            name: 'IDX_moderation_items_resolved_by',
            columnNames: ['resolved_by'],
          }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'reports',
        columns: [
          idColumn('id', { isPrimary: true }),
          idColumn('item_id'),
          idColumn('reporter_id'),
          { name: 'target_type', type: 'varchar', length: '16' },
          idColumn('target_id'),
          { name: 'reason', type: 'varchar', length: '32' },
          { name: 'note', type: 'varchar', length: '500', isNullable: true },
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          foreignKey('item_id', 'moderation_items', 'FK_reports_item', 'CASCADE'),
          foreignKey('reporter_id', 'users', 'FK_reports_reporter', 'CASCADE'),
        ],
        indices: [
          new TableIndex({
            name: 'UQ_reports_reporter_target',
            columnNames: ['reporter_id', 'target_type', 'target_id'],
            isUnique: true,
          }),
          new TableIndex({ name: 'IDX_reports_item', columnNames: ['item_id', 'id'] }),
          new TableIndex({
            name: 'IDX_reports_reporter_time',
            columnNames: ['reporter_id', 'created_at'],
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('reports');
    await queryRunner.dropTable('moderation_items');
  }
}
