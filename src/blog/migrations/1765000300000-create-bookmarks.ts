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

export class CreateBookmarks1765000300000 implements MigrationInterface {
  name = 'CreateBookmarks1765000300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'bookmarks',
        columns: [
          idColumn('user_id', { isPrimary: true }),
          idColumn('post_id', { isPrimary: true }),
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          cascadeTo('users', 'user_id', 'FK_bookmarks_user'),
          cascadeTo('posts', 'post_id', 'FK_bookmarks_post'),
        ],
        indices: [
          // A user's bookmarks, newest first: the order of myBookmarks and its cursor.
          new TableIndex({
            name: 'IDX_bookmarks_user_created',
            columnNames: ['user_id', 'created_at', 'post_id'],
          }),
          // The cascade from a deleted post finds its bookmarks without reading them all.
          new TableIndex({ name: 'IDX_bookmarks_post', columnNames: ['post_id'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('bookmarks');
  }
}
