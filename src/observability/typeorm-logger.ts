import { Logger } from '@nestjs/common';
import { context, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Logger as TypeOrmLogger, QueryRunner } from 'typeorm';

type Parameters = unknown[] | Record<string, unknown>;

export interface ObservedTypeOrmLoggerOptions {
  /** Which database: SQLite statements get their spans here; pg's instrumentation traces PostgreSQL's. */
  database: 'sqlite' | 'postgres';
  /** `DATABASE_LOGGING`: log every statement (never its parameters). */
  logStatements: boolean;
  /** Another logger that sees every call too (the statement counter of the e2e tests). */
  next?: TypeOrmLogger;
}

const tracer = trace.getTracer('blog-graphql/sql');

/**
 * TypeORM's logger, and the one place every SQL statement passes (TypeORM's own and the hand-
 * written hot paths of `Sql`): it logs through Nest's Logger, so into pino with the request id,
 * and makes a span per SQLite statement, which has no instrumentation of its own.
 */
export class ObservedTypeOrmLogger implements TypeOrmLogger {
  private readonly logger = new Logger('TypeORM');
  private readonly sqlSpans: boolean;
  /** Spans of statements running now, by text, so that a failure can mark its span. */
  private readonly running = new Map<string, Span>();

  constructor(private readonly options: ObservedTypeOrmLoggerOptions) {
    this.sqlSpans = options.database === 'sqlite';
  }

  logQuery(query: string, parameters?: Parameters, runner?: QueryRunner): void {
    this.options.next?.logQuery(query, parameters, runner);
    if (this.options.logStatements) this.logger.log({ msg: 'query', sql: query });
    if (this.sqlSpans) this.startSpan(query);
  }

  logQueryError(
    error: string | Error,
    query: string,
    parameters?: Parameters,
    runner?: QueryRunner,
  ): void {
    this.options.next?.logQueryError(error, query, parameters, runner);
    const message = error instanceof Error ? error.message : error;
    const span = this.running.get(query);
    span?.setStatus({ code: SpanStatusCode.ERROR, message });
    // The caller gets the error and decides: a unique violation is a CONFLICT, not a fault.
    const fields = { msg: 'query failed', sql: query, error: message };
    if (this.options.logStatements) this.logger.log(fields);
    else this.logger.debug(fields);
  }

  logQuerySlow(time: number, query: string, parameters?: Parameters, runner?: QueryRunner): void {
    this.options.next?.logQuerySlow(time, query, parameters, runner);
    this.logger.warn({ msg: 'slow query', sql: query, durationMs: time });
  }

  logSchemaBuild(message: string, runner?: QueryRunner): void {
    this.options.next?.logSchemaBuild(message, runner);
    this.logger.debug(message);
  }

  logMigration(message: string, runner?: QueryRunner): void {
    this.options.next?.logMigration(message, runner);
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown, runner?: QueryRunner): void {
    this.options.next?.log(level, message, runner);
    if (level === 'warn') this.logger.warn(message);
    else this.logger.log(message);
  }

  /**
   * better-sqlite3 runs a statement synchronously once TypeORM or `Sql` has logged it, so the
   * span ends at the next turn of the event loop, when the statement has run. Statements outside
   * any traced request (migrations at start-up) get none.
   */
  private startSpan(query: string): void {
    const parent = context.active();
    if (!trace.getSpan(parent)) return;
    const operation = /^\s*(\w+)/.exec(query)?.[1]?.toUpperCase() ?? 'SQL';
    const span = tracer.startSpan(
      `${operation} sqlite`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system': 'sqlite',
          'db.system.name': 'sqlite',
          'db.operation.name': operation,
          'db.statement': query,
          'db.query.text': query,
        },
      },
      parent,
    );
    this.running.set(query, span);
    setImmediate(() => {
      span.end();
      if (this.running.get(query) === span) this.running.delete(query);
    });
  }
}
