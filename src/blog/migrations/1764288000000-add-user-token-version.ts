import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * A per-user counter carried in every access token (claim `ver`): raising it revokes every token
 * issued before (log out everywhere, a changed password). A counter rather than a timestamp, as
 * a token's `iat` has a resolution of one second.
 */
export class AddUserTokenVersion1764288000000 implements MigrationInterface {
  name = 'AddUserTokenVersion1764288000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'users',
      new TableColumn({ name: 'token_version', type: 'integer', default: 0, isNullable: false }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('users', 'token_version');
  }
}
