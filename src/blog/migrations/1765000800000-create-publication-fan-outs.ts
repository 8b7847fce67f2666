import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';

import { idColumn, timestampColumn } from './column-types';

/**
 * The publications whose followers are still to be notified: one row, written in the
 * publication's own transaction, instead of one per follower. `PublicationFanOut` writes the
 * followers' notifications shortly after, a batch of publications in one transaction, and
 * deletes the rows; rows left by a process that stopped before are taken by the next. A deleted
 * post's row goes with it. Every publication writes this table, so it is kept to one B-tree on
 * SQLite: its key is the rowid itself (no AUTOINCREMENT, whose counter would be a second page to
 * write; a number may come back once the table is empty, which orders nothing wrongly).
 */
export class CreatePublicationFanOuts1765000800000 implements MigrationInterface {
  name = 'CreatePublicationFanOuts1765000800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    await queryRunner.createTable(
      new Table({
        name: 'publication_fan_outs',
        columns: [
          postgres
            ? {
                name: 'id',
                type: 'bigint',
                isPrimary: true,
                isGenerated: true,
                generationStrategy: 'increment',
              }
            : { name: 'id', type: 'integer', isPrimary: true },
          idColumn('post_id'),
          idColumn('actor_id'),
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_publication_fan_outs_post',
            columnNames: ['post_id'],
            referencedTableName: 'posts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('publication_fan_outs');
  }
}
