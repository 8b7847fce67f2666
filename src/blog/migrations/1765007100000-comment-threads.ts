import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumn,
  TableForeignKey,
  TableIndex,
} from 'typeorm';

import { idColumn, timestampColumn } from './column-types';

const cascadeTo = (table: string, column: string, name: string) =>
  new TableForeignKey({
    name,
    columnNames: [column],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });

const INDICES = [
  new TableIndex({ name: 'IDX_comments_threads', columnNames: ['post_id', 'parent_id', 'id'] }),
  new TableIndex({
    name: 'IDX_comments_top_threads',
    columnNames: ['post_id', 'parent_id', 'likes_count', 'id'],
  }),
  new TableIndex({ name: 'IDX_comments_replies', columnNames: ['parent_id', 'id'] }),
  new TableIndex({ name: 'IDX_comments_in_reply_to', columnNames: ['in_reply_to_id'] }),
];

/**
 * Conversations (issue 65): a comment may be a reply in the thread of a top-level comment
 * (`parent_id`, which takes its replies with it), answering a comment of that thread
 * (`in_reply_to_id`, forgotten when that one goes); it has a status (published, hidden,
 * deleted while it had replies, held for review), the time of its last edit, and its likes, one
 * row per user in `comment_likes` and their number kept on the comment. Every existing comment
 * is a published top-level comment without likes.
 */
export class CommentThreads1765007100000 implements MigrationInterface {
  name = 'CommentThreads1765007100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('comments', [
      new TableColumn(idColumn('parent_id', { isNullable: true })),
      new TableColumn(idColumn('in_reply_to_id', { isNullable: true })),
      new TableColumn({ name: 'status', type: 'varchar', length: '16', default: "'published'" }),
      new TableColumn(timestampColumn(queryRunner, 'edited_at', { isNullable: true })),
      new TableColumn({ name: 'likes_count', type: 'integer', default: 0 }),
    ]);
    await queryRunner.createForeignKeys('comments', [
      cascadeTo('comments', 'parent_id', 'FK_comments_parent'),
      new TableForeignKey({
        name: 'FK_comments_in_reply_to',
        columnNames: ['in_reply_to_id'],
        referencedTableName: 'comments',
        referencedColumnNames: ['id'],
        onDelete: 'SET NULL',
      }),
    ]);
    await queryRunner.createIndices('comments', INDICES);
    await queryRunner.createTable(
      new Table({
        name: 'comment_likes',
        columns: [
          idColumn('comment_id', { isPrimary: true }),
          idColumn('user_id', { isPrimary: true }),
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          cascadeTo('comments', 'comment_id', 'FK_comment_likes_comment'),
          cascadeTo('users', 'user_id', 'FK_comment_likes_user'),
        ],
        indices: [
          new TableIndex({
            name: 'IDX_comment_likes_user',
            columnNames: ['user_id', 'comment_id'],
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('comment_likes');
    // Replies become top-level comments again; tombstones, hidden and held comments go.
    await queryRunner.query("DELETE FROM comments WHERE status <> 'published'");
    for (const index of INDICES) await queryRunner.dropIndex('comments', index.name!);
    await queryRunner.dropForeignKey('comments', 'FK_comments_in_reply_to');
    await queryRunner.dropForeignKey('comments', 'FK_comments_parent');
    for (const column of ['likes_count', 'edited_at', 'status', 'in_reply_to_id', 'parent_id']) {
      await queryRunner.dropColumn('comments', column);
    }
  }
}
