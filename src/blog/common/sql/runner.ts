import { createHash } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';

import {
  bindValues,
  PostgresClient,
  postgresClientOf,
  postgresPool,
  SqliteStatements,
} from './driver';
import { Dialect, Statement } from './statement';
import { translate, Translated } from './translate';
import { throwIfRequestStopped } from '../request-scope';
import { SqliteConnectionLock } from '../sqlite-connection-lock';

/** A statement ready to run on this database: translated once, prepared on first use. */
export interface Prepared<P extends object = object, R = unknown> extends Translated {
  /** The named PostgreSQL statement; none for a statement planned for each run's values. */
  readonly name?: string;
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
  /** The database the blog runs on. */
  readonly dialect: Dialect;
  private readonly sqlite: { lock: SqliteConnectionLock; statements: SqliteStatements } | null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
    this.sqlite =
      this.dialect === 'sqlite'
        ? {
            lock: SqliteConnectionLock.of(dataSource),
            statements: new SqliteStatements(dataSource),
          }
        : null;
  }

  /** Translates a feature's statements for this database; call it once and keep the result. */
  prepare<S extends Record<string, Statement>>(statements: S): PreparedStatements<S> {
    const prepared: Record<string, Prepared> = {};
    for (const [key, { text, planEachRun }] of Object.entries(statements)) {
      const translated = translate(text, this.dialect);
      const hash = createHash('sha1').update(translated.text).digest('hex').slice(0, 16);
      prepared[key] = planEachRun ? translated : { ...translated, name: `blog_${hash}` };
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
      return sqlite.lock.transaction(send, sqlite.statements.inTransaction, () => work(runner));
    }
    return this.dataSource.transaction((manager) => {
      const client = postgresClientOf(manager);
      return work(new TransactionRunner((s, p, r) => this.execute(s, p, r, client)));
    });
  }

  /** A statement outside any transaction: refused once its operation has stopped. */
  protected readonly send: Send = async (statement, parameters, result) => {
    throwIfRequestStopped();
    return this.execute(statement, parameters, result, null);
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
      if (sqlite) {
        return await sqlite.lock.run(() => {
          this.dataSource.logger.logQuery(statement.text, values);
          const prepared = sqlite.statements.of(statement.text);
          return result === 'rows' ? prepared.all(...values) : prepared.run(...values).changes;
        });
      }
      this.dataSource.logger.logQuery(statement.text, values);
      const { rows, rowCount } = await (client ?? postgresPool(this.dataSource)).query({
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
}
