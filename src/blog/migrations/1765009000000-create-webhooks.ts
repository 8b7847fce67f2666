import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

import { idColumn, timestampColumn } from './column-types';

/**
 * Webhooks (issue 67): `webhooks`, the addresses told of events with their sealed signing
 * secrets, and `webhook_deliveries`, one row per attempt, which is both the outbox (PENDING rows,
 * written in the transaction of the change they announce) and the delivery log. Deliveries go
 * with their webhook; a webhook stays when the admin who created it goes.
 */
export class CreateWebhooks1765009000000 implements MigrationInterface {
  name = 'CreateWebhooks1765009000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A boolean default as each database spells it back, so that the entities find it in step.
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const flag = (value: boolean) => (postgres ? String(value) : value ? '1' : '0');
    await queryRunner.createTable(
      new Table({
        name: 'webhooks',
        columns: [
          idColumn('id', { isPrimary: true }),
          { name: 'url', type: 'varchar', length: '2048' },
          { name: 'events', type: 'varchar', length: '255' },
          { name: 'description', type: 'varchar', length: '500', isNullable: true },
          { name: 'secret', type: 'varchar', length: '200' },
          { name: 'previous_secret', type: 'varchar', length: '200', isNullable: true },
          timestampColumn(queryRunner, 'previous_secret_expires_at', { isNullable: true }),
          { name: 'enabled', type: 'boolean', default: flag(true) },
          { name: 'consecutive_failures', type: 'integer', default: 0 },
          idColumn('created_by', { isNullable: true }),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_webhooks_created_by',
            columnNames: ['created_by'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          }),
        ],
        indices: [new TableIndex({ name: 'IDX_webhooks_created_by', columnNames: ['created_by'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          idColumn('id', { isPrimary: true }),
          idColumn('webhook_id'),
          { name: 'message_id', type: 'varchar', length: '64' },
          { name: 'event', type: 'varchar', length: '32' },
          { name: 'payload', type: 'text' },
          { name: 'attempt', type: 'integer' },
          { name: 'manual', type: 'boolean', default: flag(false) },
          { name: 'status', type: 'varchar', length: '16' },
          timestampColumn(queryRunner, 'next_attempt_at', { isNullable: true }),
          timestampColumn(queryRunner, 'lease_expires_at', { isNullable: true }),
          { name: 'response_code', type: 'integer', isNullable: true },
          { name: 'duration_ms', type: 'integer', isNullable: true },
          { name: 'response_snippet', type: 'varchar', length: '1024', isNullable: true },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          timestampColumn(queryRunner, 'event_at'),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'attempted_at', { isNullable: true }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_webhook_deliveries_webhook',
            columnNames: ['webhook_id'],
            referencedTableName: 'webhooks',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
        indices: [
          new TableIndex({
            name: 'IDX_webhook_deliveries_due',
            columnNames: ['status', 'next_attempt_at'],
          }),
          new TableIndex({
            name: 'IDX_webhook_deliveries_webhook',
            columnNames: ['webhook_id', 'id'],
          }),
          new TableIndex({ name: 'IDX_webhook_deliveries_created', columnNames: ['created_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_deliveries');
    await queryRunner.dropTable('webhooks');
  }
}
