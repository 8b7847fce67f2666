import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

import { idColumn, timestampColumn } from './column-types';

/**
 * Account e-mail (issue 67): whether a user's address is verified (accounts made before start
 * unverified: nothing proved their address); `account_tokens`, the single-use tokens of password
 * resets and address verifications, kept only as SHA-256 hashes, going with their account; and
 * `mail_outbox`, the mails to send, written in the transaction that asks for them and sent by
 * MailOutbox. `users` only gains a column (`ALTER TABLE ... ADD COLUMN`): no table is rebuilt.
 */
export class AccountEmail1765010000000 implements MigrationInterface {
  name = 'AccountEmail1765010000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The default as each database spells it back, so that the entity finds it in step.
    const unverified = queryRunner.connection.options.type === 'postgres' ? 'false' : '(0)';
    await queryRunner.query(
      `ALTER TABLE users ADD COLUMN email_verified boolean NOT NULL DEFAULT ${unverified}`,
    );
    await queryRunner.createTable(
      new Table({
        name: 'account_tokens',
        columns: [
          idColumn('id', { isPrimary: true }),
          idColumn('user_id'),
          { name: 'purpose', type: 'varchar', length: '32' },
          { name: 'token_hash', type: 'varchar', length: '64' },
          { name: 'email', type: 'varchar', length: '254' },
          timestampColumn(queryRunner, 'expires_at'),
          timestampColumn(queryRunner, 'used_at', { isNullable: true }),
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_account_tokens_user',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
        indices: [
          new TableIndex({
            name: 'UQ_account_tokens_hash',
            columnNames: ['token_hash'],
            isUnique: true,
          }),
          new TableIndex({
            name: 'IDX_account_tokens_user',
            columnNames: ['user_id', 'purpose', 'created_at'],
          }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'mail_outbox',
        columns: [
          idColumn('id', { isPrimary: true }),
          { name: 'kind', type: 'varchar', length: '32' },
          { name: 'recipient', type: 'varchar', length: '254' },
          { name: 'subject', type: 'varchar', length: '200' },
          { name: 'text', type: 'text', isNullable: true },
          { name: 'html', type: 'text', isNullable: true },
          { name: 'headers', type: 'text' },
          { name: 'attempts', type: 'integer', default: 0 },
          timestampColumn(queryRunner, 'next_attempt_at', { isNullable: true }),
          timestampColumn(queryRunner, 'lease_expires_at', { isNullable: true }),
          timestampColumn(queryRunner, 'sent_at', { isNullable: true }),
          { name: 'last_error', type: 'varchar', length: '500', isNullable: true },
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [
          new TableIndex({
            name: 'IDX_mail_outbox_due',
            columnNames: ['next_attempt_at'],
            where: 'next_attempt_at IS NOT NULL',
          }),
          new TableIndex({ name: 'IDX_mail_outbox_created', columnNames: ['created_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('mail_outbox');
    await queryRunner.dropTable('account_tokens');
    await queryRunner.query('ALTER TABLE users DROP COLUMN email_verified');
  }
}
