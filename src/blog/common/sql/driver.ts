import { DataSource, EntityManager } from 'typeorm';

import { Dialect, KeyCount } from './statement';
import { Translated } from './translate';
import { isoTimestamp } from '../timestamps';

/** What the blog uses of a better-sqlite3 statement. */
export interface SqliteStatement {
  /** True when the statement only reads: it may run on another connection. */
  readonly readonly: boolean;
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { changes: number };
}

/** What the blog uses of a better-sqlite3 database. */
interface SqliteConnection {
  prepare(text: string): SqliteStatement;
  readonly inTransaction: boolean;
}

/** What the blog uses of a pg pool or client. */
export interface PostgresClient {
  query(config: {
    name?: string;
    text: string;
    values: unknown[];
  }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/** better-sqlite3 statements of TypeORM's one SQLite connection, each text prepared once. */
export class SqliteStatements {
  private readonly prepared = new Map<string, SqliteStatement>();

  constructor(private readonly dataSource: DataSource) {}

  /** Whether the connection has a transaction open. */
  readonly inTransaction = (): boolean => this.connection.inTransaction;

  private get connection(): SqliteConnection {
    return (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection })
      .databaseConnection;
  }

  of(text: string): SqliteStatement {
    let statement = this.prepared.get(text);
    if (!statement) {
      statement = this.connection.prepare(text);
      this.prepared.set(text, statement);
    }
    return statement;
  }
}

/** TypeORM's pg pool. */
export function postgresPool(dataSource: DataSource): PostgresClient {
  return (dataSource.driver as unknown as { master: PostgresClient }).master;
}

/** The pg client that runs the transaction of `manager`. */
export function postgresClientOf(manager: EntityManager): PostgresClient {
  return (manager.queryRunner as unknown as { databaseConnection: PostgresClient })
    .databaseConnection;
}

/**
 * The positional values of `parameters`: a key list as one value (JSON text for `json_each`
 * on SQLite, an array on PostgreSQL); on SQLite, which binds neither, a Date as TypeORM stores
 * it (UTC text) and a boolean as 1 or 0.
 */
export function bindValues(
  statement: Translated,
  parameters: Record<string, unknown>,
  dialect: Dialect,
): unknown[] {
  const sqlite = dialect === 'sqlite';
  return statement.names.map((name, index) => {
    const value = parameters[name];
    if (value === undefined) throw new Error(`No value for :${name} in: ${statement.text}`);
    if (!sqlite) return value;
    if (statement.keyLists[index]) return JSON.stringify(value);
    if (value instanceof Date)
      return isoTimestamp(value.getTime()).replace('T', ' ').replace('Z', '');
    if (typeof value === 'boolean') return value ? 1 : 0;
    return value;
  });
}

/** A timestamp as the driver returns it: a Date (PostgreSQL) or UTC text (SQLite). */
export function toDate(value: Date | string | null): Date | null {
  if (value === null || value instanceof Date) return value;
  // TypeORM's 'YYYY-MM-DD HH:MM:SS.SSS', read digit by digit: a list of posts has three
  // timestamps a row, and Date's own parsing of the text costs twice as much.
  if (value.length === 23 && value.charCodeAt(10) === 32) {
    return new Date(
      Date.UTC(
        digits(value, 0, 4),
        digits(value, 5, 2) - 1,
        digits(value, 8, 2),
        digits(value, 11, 2),
        digits(value, 14, 2),
        digits(value, 17, 2),
        digits(value, 20, 3),
      ),
    );
  }
  return new Date(value.includes('T') ? value : `${value.replace(' ', 'T')}Z`);
}

function digits(text: string, start: number, length: number): number {
  let value = 0;
  for (let index = start; index < start + length; index++) {
    value = value * 10 + text.charCodeAt(index) - 48;
  }
  return value;
}

/** Counts per key from {@link KeyCount} rows (PostgreSQL returns a COUNT as text). */
export function countsByKey(rows: KeyCount[]): Map<string, number> {
  return new Map(rows.map((row) => [row.key, Number(row.count)]));
}
