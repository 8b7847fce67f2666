import { MigrationInterface, QueryRunner, TableColumn, TableForeignKey, TableIndex } from 'typeorm';

import { idColumn } from './column-types';

/**
 * A publication's followers are notified in chunks (see `PublicationFanOut`): its pending row
 * keeps the last follower written (`after_follower`), how often its chunks failed
 * (`attempts`), and when it was set aside after too many failures (`parked_at`), so that no
 * statement grows with the number of followers and one publication that fails holds back no
 * other. A comment's notification names the comment, and goes with it when it is deleted.
 *
 * The fan-out's columns are added with ALTER TABLE on both databases (SQLite adds a nullable
 * column, or one with a constant default, without copying the table); SQLite's notifications table
 * is rebuilt for its new foreign key, as TypeORM rebuilds a table for any.
 */
export class ChunkPublicationFanOuts1765002000000 implements MigrationInterface {
  name = 'ChunkPublicationFanOuts1765002000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'datetime';
    for (const column of [
      'after_follower varchar(36) NULL',
      'attempts integer NOT NULL DEFAULT 0',
      `parked_at ${timestamp} NULL`,
    ]) {
      await queryRunner.query(`ALTER TABLE publication_fan_outs ADD COLUMN ${column}`);
    }
    const commentKey = new TableForeignKey({
      name: 'FK_notifications_comment',
      columnNames: ['comment_id'],
      referencedTableName: 'comments',
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    });
    if (postgres) {
      await queryRunner.query('ALTER TABLE notifications ADD COLUMN comment_id varchar(36) NULL');
      await queryRunner.createForeignKey('notifications', commentKey);
    } else {
      // SQLite keeps a foreign key in the table's definition only, as TypeORM writes it there:
      // TypeORM rebuilds the table for the column, then for its key.
      await queryRunner.addColumn(
        'notifications',
        new TableColumn(idColumn('comment_id', { isNullable: true })),
      );
      await queryRunner.createForeignKey('notifications', commentKey);
    }
    await queryRunner.createIndex(
      'notifications',
      new TableIndex({ name: 'IDX_notifications_comment', columnNames: ['comment_id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('notifications', 'IDX_notifications_comment');
    const notifications = await queryRunner.getTable('notifications');
    const foreignKey = notifications?.foreignKeys.find((key) =>
      key.columnNames.includes('comment_id'),
    );
    if (foreignKey) await queryRunner.dropForeignKey('notifications', foreignKey);
    await queryRunner.dropColumn('notifications', 'comment_id');
    for (const column of ['parked_at', 'attempts', 'after_follower']) {
      await queryRunner.dropColumn('publication_fan_outs', column);
    }
  }
}
