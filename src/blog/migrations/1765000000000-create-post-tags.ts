import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

import { idColumn } from './column-types';

export class CreatePostTags1765000000000 implements MigrationInterface {
  name = 'CreatePostTags1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'post_tags',
        columns: [
          idColumn('post_id', { isPrimary: true }),
          { name: 'slug', type: 'varchar', length: '64', isPrimary: true },
          { name: 'position', type: 'integer' },
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_post_tags_post',
            columnNames: ['post_id'],
            referencedTableName: 'posts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
        indices: [new TableIndex({ name: 'IDX_post_tags_slug', columnNames: ['slug', 'post_id'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('post_tags');
  }
}
