import { Logger as NestLogger } from '@nestjs/common';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import type { Logger } from 'typeorm';

import { ObservedTypeOrmLogger } from './typeorm-logger';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
beforeAll(() => NestLogger.overrideLogger(false));
afterAll(() => provider.shutdown());

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Runs `action` inside a span, as a traced request's statements run. */
function inRequest(action: () => void): void {
  trace.getTracer('test').startActiveSpan('request', (span) => {
    action();
    span.end();
  });
}

describe('ObservedTypeOrmLogger', () => {
  beforeEach(() => exporter.reset());

  it('should make a span per SQLite statement with db.statement, under the active span', async () => {
    const logger = new ObservedTypeOrmLogger({ database: 'sqlite', logStatements: false });
    inRequest(() => logger.logQuery('SELECT id FROM posts WHERE id = ?', ['p1']));
    await nextTurn();
    const spans = exporter.getFinishedSpans();
    const sql = spans.find((span) => span.name === 'SELECT sqlite')!;
    const request = spans.find((span) => span.name === 'request')!;
    expect(sql.attributes).toMatchObject({
      'db.system': 'sqlite',
      'db.statement': 'SELECT id FROM posts WHERE id = ?',
      'db.operation.name': 'SELECT',
    });
    expect(sql.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(JSON.stringify(sql.attributes)).not.toContain('p1');
  });

  it('should mark the span of a failed statement', async () => {
    const logger = new ObservedTypeOrmLogger({ database: 'sqlite', logStatements: false });
    inRequest(() => {
      logger.logQuery('INSERT INTO likes VALUES (?)', ['x']);
      logger.logQueryError(new Error('UNIQUE constraint failed'), 'INSERT INTO likes VALUES (?)');
    });
    await nextTurn();
    const [sql] = exporter.getFinishedSpans().filter((span) => span.name === 'INSERT sqlite');
    expect(sql.status).toEqual({ code: SpanStatusCode.ERROR, message: 'UNIQUE constraint failed' });
  });

  it('should make no span outside a traced request, nor on PostgreSQL (pg is instrumented)', async () => {
    new ObservedTypeOrmLogger({ database: 'sqlite', logStatements: false }).logQuery('SELECT 1');
    const postgres = new ObservedTypeOrmLogger({ database: 'postgres', logStatements: false });
    inRequest(() => postgres.logQuery('SELECT 1'));
    await nextTurn();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['request']);
  });

  it('should pass every call on to the next logger', () => {
    const next = {
      logQuery: jest.fn(),
      logQueryError: jest.fn(),
      logQuerySlow: jest.fn(),
      logSchemaBuild: jest.fn(),
      logMigration: jest.fn(),
      log: jest.fn(),
    } satisfies Logger;
    const logger = new ObservedTypeOrmLogger({ database: 'sqlite', logStatements: false, next });
    logger.logQuery('SELECT 1', [1]);
    logger.logQueryError('failed', 'SELECT 1', [1]);
    logger.logQuerySlow(5, 'SELECT 1', [1]);
    logger.logMigration('migrated');
    expect(next.logQuery).toHaveBeenCalledWith('SELECT 1', [1], undefined);
    expect(next.logQueryError).toHaveBeenCalledWith('failed', 'SELECT 1', [1], undefined);
    expect(next.logQuerySlow).toHaveBeenCalledWith(5, 'SELECT 1', [1], undefined);
    expect(next.logMigration).toHaveBeenCalledWith('migrated', undefined);
  });
});
