import { createHash } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';

import { throwIfRequestStopped } from './request-scope';
import { SqliteConnectionLock } from './sqlite-connection-lock';

/** The databases the blog runs on. */
export type Dialect = 'sqlite' | 'postgres';

/** A statement's text: the same for both databases, or one per database. */
export type SqlText = string | Readonly<Record<Dialect, string>>;

/**
 * A statement as a feature writes it in its `<feature>.sql.ts`, with named parameters:
 * `:name` is a value (a name used twice is one parameter), `IN (:...name)` tests membership in
 * a key list and `KEYS(:...name)` reads a key list as a table of one column, `value`. A key list
 * travels as one parameter whatever its length. `P` names the parameters, `R` types a row.
 */
export interface Statement<P extends object = object, R = unknown> {
  readonly text: SqlText;
  /** Never set: carries `P` and `R` to {@link Sql.all} and {@link Sql.run}. */
  readonly types?: { parameters: P; row: R };
}

/** Declares a statement; see {@link Statement}. */
export function statement<P extends object = object, R = unknown>(text: SqlText): Statement<P, R> {
  return { text };
}

/** A statement in one database's dialect, and the parameter each of its placeholders takes. */
export interface Translated {
  readonly text: string;
  /** Per placeholder in binding order: `$1..$n` on PostgreSQL, each `?` on SQLite. */
  readonly names: readonly string[];
  /** Per placeholder: whether it takes a key list. */
  readonly keyLists: readonly boolean[];
}

const TOKEN = /'(?:[^']|'')*'|"[^"]*"|::|KEYS\(:\.\.\.(\w+)\)|IN \(:\.\.\.(\w+)\)|:(\.\.\.)?(\w+)/g;

/**
 * Translates a statement's named parameters into `dialect`'s placeholders: `$k` on PostgreSQL,
 * the same `$k` for every use of a name; `?` on SQLite, one per use (`names` repeats the name).
 * Quoted text and PostgreSQL's `::` casts are left as they are.
 */
export function translate(text: SqlText, dialect: Dialect): Translated {
  const source = typeof text === 'string' ? text : text[dialect];
  const postgres = dialect === 'postgres';
  const names: string[] = [];
  const keyLists: boolean[] = [];
  const placeholder = (name: string, keyList: boolean): string => {
    const known = names.indexOf(name);
    if (known >= 0 && keyLists[known] !== keyList) {
      throw new Error(`:${name} is used both as a key list and as a value in: ${source}`);
    }
    if (postgres && known >= 0) return `$${known + 1}`;
    names.push(name);
    keyLists.push(keyList);
    return postgres ? `$${names.length}` : '?';
  };
  const translated = source.replace(
    TOKEN,
    (token, table?: string, member?: string, spread?: string, name?: string) => {
      if (table) {
        const keys = placeholder(table, true);
        return postgres
          ? `(SELECT unnest(CAST(${keys} AS varchar[])) AS value)`
          : `(SELECT value FROM json_each(${keys}))`;
      }
      if (member) {
        const keys = placeholder(member, true);
        return postgres ? `= ANY(${keys})` : `IN (SELECT value FROM json_each(${keys}))`;
      }
      if (spread) throw new Error(`:...${name} must be in IN (...) or KEYS(...) in: ${source}`);
      return name ? placeholder(name, false) : token;
    },
  );
  return { text: translated, names, keyLists };
}

/** A statement ready to run on this database: translated once, prepared on first use. */
export interface Prepared<P extends object = object, R = unknown> extends Translated {
  /** The named PostgreSQL statement. */
  readonly name: string;
  readonly types?: { parameters: P; row: R };
}

/** Prepared versions of a feature's statements, under the same keys. */
export type PreparedStatements<S> = {
  [K in keyof S]: S[K] extends Statement<infer P, infer R> ? Prepared<P, R> : never;
};

/** Runs prepared statements: {@link Sql} on the pool, or one transaction's connection. */
export interface SqlRunner {
  /** The rows that `statement` reads. */
  all<P extends object, R>(statement: Prepared<P, R>, parameters: NoInfer<P>): Promise<R[]>;
  /** The first row that `statement` reads, or null. */
  one<P extends object, R>(statement: Prepared<P, R>, parameters: NoInfer<P>): Promise<R | null>;
  /** Runs a write and returns how many rows it changed. */
  run<P extends object>(statement: Prepared<P, unknown>, parameters: NoInfer<P>): Promise<number>;
}

/** `SELECT key, COUNT(*) AS count ... GROUP BY key`, read by {@link countsByKey}. */
export interface KeyCount {
  key: string;
  count: string | number;
}

interface SqliteStatement {
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { changes: number };
}
interface SqliteConnection {
  prepare(text: string): SqliteStatement;
}
interface PostgresClient {
  query(config: {
    name: string;
    text: string;
    values: unknown[];
  }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

type Result = 'rows' | 'changes';
type Send = (
  statement: Prepared,
  parameters: object,
  result: Result,
) => Promise<unknown[] | number>;

/** all, one and run, over the one way a runner sends a statement. */
abstract class Runner implements SqlRunner {
  protected abstract send: Send;

  all<P extends object, R>(statement: Prepared<P, R>, parameters: NoInfer<P>): Promise<R[]> {
    return this.send(statement, parameters, 'rows') as Promise<R[]>;
  }

  async one<P extends object, R>(
    statement: Prepared<P, R>,
    parameters: NoInfer<P>,
  ): Promise<R | null> {
    return (await this.all(statement, parameters))[0] ?? null;
  }

  run<P extends object>(statement: Prepared<P, unknown>, parameters: NoInfer<P>): Promise<number> {
    return this.send(statement, parameters, 'changes') as Promise<number>;
  }
}

/** A transaction's runner: `send` runs a statement on the transaction's connection. */
class TransactionRunner extends Runner {
  constructor(protected readonly send: Send) {
    super();
  }
}

/**
 * Every statement of the blog: each feature's named SQL, run without TypeORM's query building,
 * query runners and entity hydration, which cost more than the statement itself on the hot
 * paths. Each statement is translated once ({@link Sql.prepare}) and prepared once (a
 * better-sqlite3 statement per text; a named PostgreSQL statement per connection). The
 * statements run on TypeORM's own connection (pool) and are reported to its logger, text and
 * positional parameters, so the statement counter and query logging still see every one. On
 * SQLite they wait, like TypeORM's own statements, while another request's transaction holds
 * the one connection (see SqliteConnectionLock, installed here since every blog read and write
 * comes through here).
 */
@Injectable()
export class Sql extends Runner {
  private readonly dialect: Dialect;
  private readonly sqliteStatements = new Map<string, SqliteStatement>();
  private readonly sqliteLock: SqliteConnectionLock | null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
    this.sqliteLock = this.dialect === 'sqlite' ? SqliteConnectionLock.of(dataSource) : null;
  }

  /** Translates a feature's statements for this database; call it once and keep the result. */
  prepare<S extends Record<string, Statement>>(statements: S): PreparedStatements<S> {
    const prepared: Record<string, Prepared> = {};
    for (const [key, { text }] of Object.entries(statements)) {
      const translated = translate(text, this.dialect);
      const hash = createHash('sha1').update(translated.text).digest('hex').slice(0, 16);
      prepared[key] = { ...translated, name: `blog_${hash}` };
    }
    return prepared as PreparedStatements<S>;
  }

  /**
   * Runs `work` in a transaction, all or nothing: its statements run on the transaction's own
   * connection (PostgreSQL) or under the connection lock that the transaction holds (SQLite).
   * A transaction of a stopped operation (see RequestScope) does not begin; one under way runs
   * to its end.
   */
  async transaction<T>(work: (sql: SqlRunner) => Promise<T>): Promise<T> {
    throwIfRequestStopped();
    return this.dataSource.transaction((manager) => {
      const client =
        this.dialect === 'postgres'
          ? (manager.queryRunner as unknown as { databaseConnection: PostgresClient })
              .databaseConnection
          : null;
      return work(new TransactionRunner((s, p, r) => this.execute(s, p, r, client)));
    });
  }

  /** A statement outside any transaction: refused once its operation has stopped. */
  protected readonly send: Send = async (statement, parameters, result) => {
    throwIfRequestStopped();
    return this.execute(statement, parameters, result, null);
  };

  private async execute(
    statement: Prepared,
    parameters: object,
    result: Result,
    client: PostgresClient | null,
  ): Promise<unknown[] | number> {
    const values = this.valuesOf(statement, parameters as Record<string, unknown>);
    try {
      if (this.sqliteLock) {
        return await this.sqliteLock.run(() => {
          this.dataSource.logger.logQuery(statement.text, values);
          const prepared = this.sqlitePrepared(statement.text);
          return result === 'rows' ? prepared.all(...values) : prepared.run(...values).changes;
        });
      }
      this.dataSource.logger.logQuery(statement.text, values);
      const { rows, rowCount } = await (client ?? this.pool()).query({
        name: statement.name,
        text: statement.text,
        values,
      });
      return result === 'rows' ? rows : (rowCount ?? 0);
    } catch (error) {
      this.dataSource.logger.logQueryError(String(error), statement.text, values);
      throw new QueryFailedError(statement.text, values, error as Error);
    }
  }

  /**
   * The positional values of `parameters`: a key list as one value (JSON text for `json_each`
   * on SQLite, an array on PostgreSQL); on SQLite, which binds neither, a Date as TypeORM stores
   * it (UTC text) and a boolean as 1 or 0.
   */
  private valuesOf(statement: Prepared, parameters: Record<string, unknown>): unknown[] {
    const sqlite = this.sqliteLock !== null;
    return statement.names.map((name, index) => {
      const value = parameters[name];
      if (value === undefined) throw new Error(`No value for :${name} in: ${statement.text}`);
      if (!sqlite) return value;
      if (statement.keyLists[index]) return JSON.stringify(value);
      if (value instanceof Date) return value.toISOString().replace('T', ' ').replace('Z', '');
      if (typeof value === 'boolean') return value ? 1 : 0;
      return value;
    });
  }

  private sqlitePrepared(text: string): SqliteStatement {
    let prepared = this.sqliteStatements.get(text);
    if (!prepared) {
      const connection = (
        this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }
      ).databaseConnection;
      prepared = connection.prepare(text);
      this.sqliteStatements.set(text, prepared);
    }
    return prepared;
  }

  private pool(): PostgresClient {
    return (this.dataSource.driver as unknown as { master: PostgresClient }).master;
  }
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

/** Counts per key from {@link KeyCount} rows. */
export function countsByKey(rows: KeyCount[]): Map<string, number> {
  return new Map(rows.map((row) => [row.key, Number(row.count)]));
}
