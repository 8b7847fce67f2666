import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

import { idColumn, timestampColumn } from './column-types';

export class CreateUsersAndPosts1763740800000 implements MigrationInterface {
  name = 'CreateUsersAndPosts1763740800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'users',
        columns: [
          idColumn('id', { isPrimary: true }),
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'email', type: 'varchar', length: '254' },
          { name: 'handle', type: 'varchar', length: '30' },
          { name: 'avatar', type: 'varchar', length: '2048', isNullable: true },
          { name: 'password_hash', type: 'varchar', length: '255' },
          { name: 'role', type: 'varchar', length: '16', default: "'user'" },
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_users_email', columnNames: ['email'], isUnique: true }),
          new TableIndex({ name: 'UQ_users_handle', columnNames: ['handle'], isUnique: true }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'posts',
        columns: [
          idColumn('id', { isPrimary: true }),
          { name: 'title', type: 'varchar', length: '200' },
          { name: 'content', type: 'text' },
          idColumn('author_id'),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
          timestampColumn(queryRunner, 'published_at', { isNullable: true }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_posts_author',
            columnNames: ['author_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
        indices: [
          new TableIndex({
            name: 'IDX_posts_published',
            columnNames: ['published_at', 'id'],
          }),
          new TableIndex({
            name: 'IDX_posts_author_published',
            columnNames: ['author_id', 'published_at', 'id'],
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('posts');
    await queryRunner.dropTable('users');
  }
}
