import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

import { idColumn, timestampColumn } from './column-types';

/**
 * Uploaded images (issue 66): `images`, one row per upload with its variants as JSON, gone with
 * its owner's account; `image_uploads`, the uploads whose files are being stored, by which the
 * sweep tells an abandoned upload's files from those still being written; and where an image is used, `posts.cover_image_id` and
 * `users.avatar_image_id`, added in place (rebuilding `posts` on SQLite would drop the triggers of
 * its search index). Those two carry no foreign key: deleting an image in use is refused by the
 * service, and SQLite cannot drop a column that a foreign key names.
 */
export class CreateImages1765008000000 implements MigrationInterface {
  name = 'CreateImages1765008000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'images',
        columns: [
          idColumn('id', { isPrimary: true }),
          idColumn('owner_id'),
          { name: 'alt', type: 'varchar', length: '1000', isNullable: true },
          { name: 'width', type: 'integer' },
          { name: 'height', type: 'integer' },
          { name: 'format', type: 'varchar', length: '8' },
          { name: 'bytes', type: 'integer' },
          { name: 'variants', type: 'text' },
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_images_owner',
            columnNames: ['owner_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
        indices: [
          new TableIndex({
            name: 'IDX_images_owner_created',
            columnNames: ['owner_id', 'created_at', 'id'],
          }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'image_uploads',
        columns: [idColumn('id', { isPrimary: true }), timestampColumn(queryRunner, 'expires_at')],
        indices: [
          new TableIndex({ name: 'IDX_image_uploads_expires', columnNames: ['expires_at'] }),
        ],
      }),
    );
    await queryRunner.query('ALTER TABLE posts ADD COLUMN cover_image_id varchar(36)');
    await queryRunner.query('CREATE INDEX "IDX_posts_cover_image" ON posts (cover_image_id)');
    await queryRunner.query('ALTER TABLE users ADD COLUMN avatar_image_id varchar(36)');
    await queryRunner.query('CREATE INDEX "IDX_users_avatar_image" ON users (avatar_image_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_users_avatar_image"');
    await queryRunner.query('ALTER TABLE users DROP COLUMN avatar_image_id');
    await queryRunner.query('DROP INDEX "IDX_posts_cover_image"');
    await queryRunner.query('ALTER TABLE posts DROP COLUMN cover_image_id');
    await queryRunner.dropTable('image_uploads');
    await queryRunner.dropTable('images');
  }
}
