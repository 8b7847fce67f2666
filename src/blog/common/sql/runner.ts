import { createHash } from 'node:crypto';

import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { GraphQLError } from 'graphql';
import { DataSource, QueryFailedError } from 'typeorm';

import {
  bindValues,
  PostgresClient,
  postgresClientOf,
  postgresPool,
  SqliteStatements,
} from './driver';
import { OperationShare } from './operation-share';
import { SqliteReadPool } from './sqlite-read-pool';
import { Dialect, Statement } from './statement';
import { translate, Translated } from './translate';
import { statementTimeout } from '../errors';
import { currentRequestScope, throwIfRequestStopped } from '../request-scope';
import { SqliteConnectionLock } from '../sqlite-connection-lock';

/** How the blog's statements use the database; every field has a default. */
export interface SqlOptions {
  /**
   * SQLite: worker threads that run reads off the event loop, each with a read-only connection
   * of its own. Default 2; 0 runs every statement on the event loop's thread, as an in-memory
   * database always does.
   */
  sqliteReadWorkers?: number;
  /**
   * The longest a statement may run, in ms; 0 for no limit. PostgreSQL enforces it itself (the
   * host sets `statement_timeout` on its pool, as the standalone service does from the same
   * setting); on SQLite a read past it is given up and its worker replaced. Either way the
   * operation gets STATEMENT_TIMEOUT. Default 10,000.
   */
  statementTimeoutMs?: number;
}

/** The injection token of {@link SqlOptions}. */
export const SQL_OPTIONS = Symbol('SQL_OPTIONS');

/** The default of {@link SqlOptions.sqliteReadWorkers}. */
export const DEFAULT_SQLITE_READ_WORKERS = 2;
/** The default of {@link SqlOptions.statementTimeoutMs}. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

/** PostgreSQL's code for a statement cancelled, as `statement_timeout` cancels it. */
const QUERY_CANCELED = '57014';

/** A statement ready to run on this database: translated once, prepared on first use. */
export interface Prepared<P extends object = object, R = unknown> extends Translated {
  /** The named PostgreSQL statement; none for a statement planned for each run's values. */
  readonly name?: string;
  /** A read whose work grows with the data: on SQLite it runs on a reader thread. */
  readonly runsLong?: boolean;
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
  /**
   * Calls `callback` once what this runner wrote is committed: when its transaction commits
   * (never if it rolls back), or at once outside a transaction, where each write commits itself.
   * A transaction within another on SQLite is a savepoint: its callbacks run when it is
   * released, while the outer one still holds the connection (what they start waits for it).
   */
  afterCommit(callback: () => void): void;
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

  afterCommit(callback: () => void): void {
    callback();
  }
}

/**
 * A transaction's runner: `send` runs a statement on the transaction's connection, and the
 * callbacks of {@link afterCommit} wait for {@link committed}.
 */
class TransactionRunner extends Runner {
  private readonly callbacks: (() => void)[] = [];

  constructor(protected readonly send: Send) {
    super();
  }

  override afterCommit(callback: () => void): void {
    this.callbacks.push(callback);
  }

  /** Calls the callbacks of afterCommit: once the transaction has committed. */
  committed(): void {
    for (const callback of this.callbacks.splice(0)) callback();
  }
}

/**
 * Every statement of the blog: each feature's named SQL, run without TypeORM's query building,
 * query runners and entity hydration, which cost more than the statement itself on the hot
 * paths. Each statement is translated once ({@link Sql.prepare}) and prepared once (a
 * better-sqlite3 statement per text; a named PostgreSQL statement per connection). The
 * statements run on TypeORM's own connection (pool) and are reported to its logger, text and
 * positional parameters, so the statement counter and query logging still see every one.
 *
 * On SQLite, a read that runs long (a search, a count, a filter by tags: see
 * {@link Statement.runsLong}) runs outside any transaction on a worker thread
 * ({@link SqliteReadPool}), so that however long it takes the event loop stays free; point reads
 * and short pages along an index, writes, and every statement of a transaction, run on TypeORM's
 * one connection and wait, like TypeORM's own statements, while
 * another request's transaction holds it (see SqliteConnectionLock, installed here since every
 * blog read and write comes through here).
 *
 * One operation holds at most half of the pool at once ({@link OperationShare}): its connections
 * on PostgreSQL, its reader threads on SQLite. A statement of an operation that has stopped is
 * never sent, and a statement past the time budget answers STATEMENT_TIMEOUT on both databases.
 */
@Injectable()
export class Sql extends Runner implements OnApplicationShutdown {
  /** The database the blog runs on. */
  readonly dialect: Dialect;
  private readonly sqlite: {
    lock: SqliteConnectionLock;
    statements: SqliteStatements;
    readers: SqliteReadPool | null;
  } | null;
  private readonly share: OperationShare | null;
  private readonly timeoutMs: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() @Inject(SQL_OPTIONS) options: SqlOptions = {},
  ) {
    super();
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
    this.timeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    if (this.dialect === 'postgres') {
      this.sqlite = null;
      this.share = OperationShare.half(postgresPoolSize(dataSource));
      return;
    }
    const readers = sqliteReadPool(dataSource, options, this.timeoutMs);
    this.sqlite = {
      lock: SqliteConnectionLock.of(dataSource),
      statements: new SqliteStatements(dataSource),
      readers,
    };
    this.share = readers ? OperationShare.half(readers.size) : null;
  }

  /**
   * Stops SQLite's reader threads once the host's server has let the requests in flight finish;
   * reads still waiting fail.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.sqlite?.readers?.close();
  }

  /** Translates a feature's statements for this database; call it once and keep the result. */
  prepare<S extends Record<string, Statement>>(statements: S): PreparedStatements<S> {
    const prepared: Record<string, Prepared> = {};
    for (const [key, { text, planEachRun, runsLong }] of Object.entries(statements)) {
      const translated = translate(text, this.dialect);
      const hash = createHash('sha1').update(translated.text).digest('hex').slice(0, 16);
      const named = planEachRun ? translated : { ...translated, name: `blog_${hash}` };
      prepared[key] = runsLong ? { ...named, runsLong } : named;
    }
    return prepared as PreparedStatements<S>;
  }

  /**
   * Runs `work` in a transaction, all or nothing: its statements run on the transaction's own
   * connection (PostgreSQL, through TypeORM) or under the connection lock that the transaction
   * holds (SQLite, sent by the lock itself: see SqliteConnectionLock.transaction).
   * A transaction of a stopped operation (see RequestScope) does not begin; one under way runs
   * to its end.
   */
  async transaction<T>(work: (sql: SqlRunner) => Promise<T>): Promise<T> {
    throwIfRequestStopped();
    const { sqlite } = this;
    if (sqlite) {
      const runner = new TransactionRunner((s, p, r) => this.execute(s, p, r, null));
      const send = (text: string) => this.sendControl(sqlite.statements, text);
      const result = await sqlite.lock.transaction(send, sqlite.statements.inTransaction, () =>
        work(runner),
      );
      runner.committed();
      return result;
    }
    let runner: TransactionRunner | undefined;
    const result = await this.dataSource.transaction((manager) => {
      const client = postgresClientOf(manager);
      runner = new TransactionRunner((s, p, r) => this.execute(s, p, r, client));
      return work(runner);
    });
    runner?.committed();
    return result;
  }

  /**
   * A statement outside any transaction: refused once its operation has stopped, and run within
   * the operation's share of the pool when it takes a pooled connection or a reader thread.
   */
  protected readonly send: Send = async (statement, parameters, result) => {
    throwIfRequestStopped();
    const { share } = this;
    if (!share || (this.sqlite && !statement.runsLong)) {
      return this.execute(statement, parameters, result, null);
    }
    const scope = currentRequestScope();
    return share.run(scope, () => {
      scope?.throwIfStopped();
      return this.execute(statement, parameters, result, null);
    });
  };

  /**
   * BEGIN, COMMIT, ROLLBACK and savepoints of a SQLite transaction, with the text TypeORM sends
   * for them, logged and failing as its statements do.
   */
  private sendControl(statements: SqliteStatements, text: string): void {
    this.dataSource.logger.logQuery(text, []);
    try {
      statements.of(text).run();
    } catch (error) {
      this.dataSource.logger.logQueryError(String(error), text, []);
      throw new QueryFailedError(text, [], error as Error);
    }
  }

  private async execute(
    statement: Prepared,
    parameters: object,
    result: Result,
    client: PostgresClient | null,
  ): Promise<unknown[] | number> {
    const values = bindValues(statement, parameters as Record<string, unknown>, this.dialect);
    try {
      const { sqlite } = this;
      if (sqlite) return await this.executeOnSqlite(sqlite, statement, values, result);
      this.dataSource.logger.logQuery(statement.text, values);
      const { rows, rowCount } = await (client ?? postgresPool(this.dataSource)).query({
        name: statement.name,
        text: statement.text,
        values,
      });
      return result === 'rows' ? rows : (rowCount ?? 0);
    } catch (error) {
      if (error instanceof GraphQLError) throw error;
      this.dataSource.logger.logQueryError(String(error), statement.text, values);
      if ((error as { code?: unknown }).code === QUERY_CANCELED) {
        throw statementTimeout(this.timeoutMs);
      }
      throw new QueryFailedError(statement.text, values, error as Error);
    }
  }

  /**
   * A read that runs long ({@link Statement.runsLong}), outside any transaction, goes to a reader
   * thread when there are any; everything else runs on the connection, once no other context's
   * transaction holds it.
   */
  private executeOnSqlite(
    sqlite: NonNullable<Sql['sqlite']>,
    statement: Prepared,
    values: unknown[],
    result: Result,
  ): Promise<unknown[] | number> | unknown[] | number {
    const { text } = statement;
    const prepared = sqlite.statements.of(text);
    if (
      statement.runsLong &&
      sqlite.readers &&
      result === 'rows' &&
      prepared.readonly &&
      !sqlite.lock.heldHere()
    ) {
      this.dataSource.logger.logQuery(text, values);
      return sqlite.readers.all(text, values, currentRequestScope()?.signal);
    }
    return sqlite.lock.run(() => {
      this.dataSource.logger.logQuery(text, values);
      return result === 'rows' ? prepared.all(...values) : prepared.run(...values).changes;
    });
  }
}

/** The size of TypeORM's pg pool: its `poolSize`, or pg's default of 10. */
function postgresPoolSize(dataSource: DataSource): number {
  const { poolSize } = dataSource.options as { poolSize?: number };
  return poolSize ?? 10;
}

/**
 * SQLite's reader threads, on a file database in WAL mode with workers wanted; null otherwise
 * (an in-memory database is private to its one connection).
 */
function sqliteReadPool(
  dataSource: DataSource,
  options: SqlOptions,
  timeoutMs: number,
): SqliteReadPool | null {
  const workers = options.sqliteReadWorkers ?? DEFAULT_SQLITE_READ_WORKERS;
  const { database, enableWAL } = dataSource.options as { database?: unknown; enableWAL?: boolean };
  if (workers < 1 || !enableWAL || typeof database !== 'string') return null;
  if (database === '' || database === ':memory:') return null;
  return new SqliteReadPool({
    file: database,
    workers,
    timeoutMs,
    driver: require.resolve('better-sqlite3'),
    timedOut: statementTimeout,
  });
}
