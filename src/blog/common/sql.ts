import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * Hand-written SQL for the hot read paths (loaders and lists), where TypeORM's query building
 * and entity hydration cost more than the statement itself. Each statement's text is fixed, so
 * the driver prepares it once; lists of keys travel as one parameter (`json_each` on SQLite,
 * `ANY` on PostgreSQL). Statements still go through TypeORM's query runner, so its logger sees
 * every one.
 */
@Injectable()
export class Sql {
  readonly postgres: boolean;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.postgres = dataSource.options.type === 'postgres';
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

  /** A key list as the one parameter that `IN (??)` takes. */
  keys(keys: readonly string[]): unknown {
    return this.postgres ? [...keys] : JSON.stringify(keys);
  }

  all<T>(statement: string, parameters: unknown[]): Promise<T[]> {
    return this.dataSource.query(statement, parameters) as Promise<T[]>;
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
