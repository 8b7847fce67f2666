import type { QueryRunner, TableColumnOptions } from 'typeorm';

/** A UTC timestamp column that works on SQLite (datetime text) and PostgreSQL (timestamptz). */
export function timestampColumn(
  queryRunner: QueryRunner,
  name: string,
  options: Partial<TableColumnOptions> = {},
): TableColumnOptions {
  const postgres = queryRunner.connection.driver.options.type === 'postgres';
  return { name, type: postgres ? 'timestamptz' : 'datetime', ...options };
}

/** UUIDv7 ids are stored as their 36-character text form on every database. */
export function idColumn(
  name: string,
  options: Partial<TableColumnOptions> = {},
): TableColumnOptions {
  return { name, type: 'varchar', length: '36', ...options };
}
