import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';
import { SqliteConnectionLock } from './sqlite-connection-lock';

interface SqliteStatement {
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { changes: number };
}
interface SqliteConnection {
  prepare(text: string): SqliteStatement;
}
interface PostgresPool {
  query(config: {
    name: string;
    text: string;
    values: unknown[];
  }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * Hand-written SQL for the hot paths (loaders, lists, new posts and likes), where TypeORM's query building,
 * query runners and entity hydration cost more than the statement itself. Each statement's text
 * is fixed and prepared once (a better-sqlite3 statement; a named PostgreSQL statement per
 * connection); lists of keys travel as one parameter (`json_each` on SQLite, `ANY` on
 * PostgreSQL). The statements run on TypeORM's own connection (pool) and are reported to its
 * logger, so the statement counter and query logging still see every one. On SQLite they wait,
 * like TypeORM's own statements, while another request's transaction holds the one connection
 * (see SqliteConnectionLock, installed here since every blog read and write comes through here).
 */
@Injectable()
export class Sql {
  readonly postgres: boolean;
  private readonly sqliteStatements = new Map<string, SqliteStatement>();
  private readonly postgresNames = new Map<string, string>();
  private readonly sqliteLock: SqliteConnectionLock | null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.postgres = dataSource.options.type === 'postgres';
    this.sqliteLock = this.postgres ? null : SqliteConnectionLock.of(dataSource);
  }

  /**
   * Turns SQL written with `?` placeholders, `IN (??)` key lists and `KEYS` (the key list as a
   * table of one column, `value`) into this database's dialect; `text` may differ per database.
   * Call it once per statement and keep the result.
   */
  statement(text: string | { sqlite: string; postgres: string }): string {
    const source = typeof text === 'string' ? text : this.postgres ? text.postgres : text.sqlite;
    let index = 0;
    return source.replace(/IN \(\?\?\)|KEYS|\?/g, (match) => {
      index += 1;
      const placeholder = this.postgres ? `$${index}` : '?';
      if (match === '?') return placeholder;
      if (match === 'KEYS') {
        return this.postgres
          ? `(SELECT unnest(CAST(${placeholder} AS varchar[])) AS value)`
          : `(SELECT value FROM json_each(${placeholder}))`;
      }
      return this.postgres
        ? `= ANY(${placeholder})`
        : `IN (SELECT value FROM json_each(${placeholder}))`;
    });
  }

  /** A timestamp parameter as TypeORM stores it: a Date for PostgreSQL, UTC text for SQLite. */
  timestamp(value: Date | null): Date | string | null {
    if (value === null || this.postgres) return value;
    return value.toISOString().replace('T', ' ').replace('Z', '');
  }

  /** A key list as the one parameter that `IN (??)` takes. */
  keys(keys: readonly string[]): unknown {
    return this.postgres ? [...keys] : JSON.stringify(keys);
  }

  async all<T>(statement: string, parameters: unknown[]): Promise<T[]> {
    return this.execute(
      statement,
      parameters,
      (prepared) => prepared.all(...parameters) as T[],
      ({ rows }) => rows as T[],
    );
  }

  /** Runs a write and returns how many rows it changed. */
  async run(statement: string, parameters: unknown[]): Promise<number> {
    return this.execute(
      statement,
      parameters,
      (prepared) => prepared.run(...parameters).changes,
      ({ rowCount }) => rowCount ?? 0,
    );
  }

  private async execute<T>(
    statement: string,
    parameters: unknown[],
    onSqlite: (prepared: SqliteStatement) => T,
    onPostgres: (result: { rows: unknown[]; rowCount: number | null }) => T,
  ): Promise<T> {
    try {
      if (this.sqliteLock) {
        return await this.sqliteLock.run(() => {
          this.dataSource.logger.logQuery(statement, parameters);
          return onSqlite(this.prepared(statement));
        });
      }
      this.dataSource.logger.logQuery(statement, parameters);
      const pool = (this.dataSource.driver as unknown as { master: PostgresPool }).master;
      return onPostgres(
        await pool.query({ name: this.nameOf(statement), text: statement, values: parameters }),
      );
    } catch (error) {
      this.dataSource.logger.logQueryError(String(error), statement, parameters);
      throw new QueryFailedError(statement, parameters, error as Error);
    }
  }

  private prepared(statement: string): SqliteStatement {
    let prepared = this.sqliteStatements.get(statement);
    if (!prepared) {
      const connection = (
        this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }
      ).databaseConnection;
      prepared = connection.prepare(statement);
      this.sqliteStatements.set(statement, prepared);
    }
    return prepared;
  }

  private nameOf(statement: string): string {
    let name = this.postgresNames.get(statement);
    if (!name) {
      name = `blog_${createHash('sha1').update(statement).digest('hex').slice(0, 16)}`;
      this.postgresNames.set(statement, name);
    }
    return name;
  }

  async one<T>(statement: string, parameters: unknown[]): Promise<T | null> {
    return (await this.all<T>(statement, parameters))[0] ?? null;
  }
}

/** A timestamp as the driver returns it: a Date (PostgreSQL) or UTC text (SQLite). */
export function toDate(value: Date | string | null): Date | null {
  if (value === null || value instanceof Date) return value;
  return new Date(value.includes('T') ? value : `${value.replace(' ', 'T')}Z`);
}

/** Counts per key from `SELECT key, COUNT(*) AS count ... GROUP BY key` rows. */
export function countsByKey(rows: { key: string; count: string | number }[]): Map<string, number> {
  return new Map(rows.map((row) => [row.key, Number(row.count)]));
}
