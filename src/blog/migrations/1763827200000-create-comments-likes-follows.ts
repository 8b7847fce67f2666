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

export class CreateCommentsLikesFollows1763827200000 implements MigrationInterface {
  name = 'CreateCommentsLikesFollows1763827200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'comments',
        columns: [
          idColumn('id', { isPrimary: true }),
          idColumn('post_id'),
          idColumn('author_id'),
          { name: 'text', type: 'text' },
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          cascadeTo('posts', 'post_id', 'FK_comments_post'),
          cascadeTo('users', 'author_id', 'FK_comments_author'),
        ],
        indices: [
          new TableIndex({ name: 'IDX_comments_post', columnNames: ['post_id', 'id'] }),
          new TableIndex({ name: 'IDX_comments_author', columnNames: ['author_id'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'likes',
        columns: [
          idColumn('post_id', { isPrimary: true }),
          idColumn('user_id', { isPrimary: true }),
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          cascadeTo('posts', 'post_id', 'FK_likes_post'),
          cascadeTo('users', 'user_id', 'FK_likes_user'),
        ],
        indices: [new TableIndex({ name: 'IDX_likes_user', columnNames: ['user_id', 'post_id'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'follows',
        columns: [
          idColumn('follower_id', { isPrimary: true }),
          idColumn('followee_id', { isPrimary: true }),
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          cascadeTo('users', 'follower_id', 'FK_follows_follower'),
          cascadeTo('users', 'followee_id', 'FK_follows_followee'),
        ],
        indices: [
          new TableIndex({
            name: 'IDX_follows_followee',
            columnNames: ['followee_id', 'follower_id'],
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('follows');
    await queryRunner.dropTable('likes');
    await queryRunner.dropTable('comments');
  }
}
