import { execFileSync } from 'node:child_process';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { BuiltService, ROOT } from './helpers/built-service';
import { testDatabase } from './helpers/databases';

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, unknown>;
}

const SPAN_KIND_SERVER = 2;

/** A local OTLP/HTTP receiver of JSON-encoded traces, as a collector would be. */
function otlpReceiver(): { server: Server; spans: ReceivedSpan[] } {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        for (const resource of body.resourceSpans ?? []) {
          for (const scoped of resource.scopeSpans ?? []) {
            for (const span of scoped.spans ?? []) {
              spans.push({
                ...span,
                scope: scoped.scope?.name,
                attributes: Object.fromEntries(
                  (span.attributes ?? []).map((a: { key: string; value: object }) => [
                    a.key,
                    Object.values(a.value)[0],
                  ]),
                ),
              });
            }
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { server, spans };
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Traces, logs and metrics of the built service (e2e)', () => {
  const receiver = otlpReceiver();
  let service: BuiltService | undefined;
  let baseUrl: string;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    const receiverPort = (receiver.server.address() as AddressInfo).port;
    service = await BuiltService.start({
      LOG_LEVEL: 'info',
      METRICS_ENABLED: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'blog-tracing-e2e',
      GRAPHQL_JIT_COMPILE_AFTER: '0',
    });
    baseUrl = `http://127.0.0.1:${service.port}`;
  }, 240_000);

  afterAll(async () => {
    await service?.stop();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  it('should show one query in the logs, in /metrics and as HTTP, GraphQL and SQL spans', async () => {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'traced-query-1' },
      body: JSON.stringify({ query: 'query PostList { posts(first: 5) { id title } }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('traced-query-1');

    const operation = await until(
      () => receiver.spans.find((span) => span.name === 'query PostList'),
      'the GraphQL operation span',
    );
    expect(operation.attributes).toMatchObject({
      'graphql.operation.name': 'PostList',
      'graphql.operation.type': 'query',
    });
    const trace = () => receiver.spans.filter((span) => span.traceId === operation.traceId);
    const http = await until(
      () => trace().find((span) => span.kind === SPAN_KIND_SERVER && !span.parentSpanId),
      'the HTTP server span',
    );
    expect(http.scope).toBe('@opentelemetry/instrumentation-http');
    expect(http.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.path': '/graphql',
    });
    const sql = await until(
      () => trace().find((span) => /FROM posts/i.test(String(span.attributes['db.statement']))),
      'an SQL span with db.statement',
    );
    expect(sql.attributes['db.statement']).toMatch(/^SELECT/);
    // PostgreSQL's come from pg's instrumentation; SQLite's, with none, from the TypeORM logger.
    expect(sql.scope).toBe(
      testDatabase() === 'postgres' ? '@opentelemetry/instrumentation-pg' : 'blog-graphql/sql',
    );

    const logLine = service!.output
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((line) => line.requestId === 'traced-query-1' && line.msg === 'graphql operation');
    expect(logLine).toMatchObject({ operationName: 'PostList', traceId: operation.traceId });

    const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
    expect(metrics).toMatch(
      /^graphql_operations_total\{operation_name="PostList",operation_type="query",outcome="success"\} 1$/m,
    );
  });

  it('should trace an operation that graphql-jit compiled, with its SQL in the same trace', async () => {
    // The service queues a query for compiling after its first run (GRAPHQL_JIT_COMPILE_AFTER=0),
    // which the test above made.
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'traced-query-2' },
      body: JSON.stringify({ query: 'query PostList { posts(first: 5) { id title } }' }),
    });
    expect(response.status).toBe(200);

    const operation = await until(
      () =>
        receiver.spans.find(
          (span) =>
            span.name === 'query PostList' &&
            span.attributes['graphql.execution.compiled'] === true,
        ),
      'the compiled GraphQL operation span',
    );
    expect(operation.attributes).toMatchObject({
      'graphql.operation.name': 'PostList',
      'graphql.operation.type': 'query',
    });
    await until(
      () =>
        receiver.spans.find(
          (span) =>
            span.traceId === operation.traceId &&
            span.parentSpanId === operation.spanId &&
            /FROM posts/i.test(String(span.attributes['db.statement'])),
        ),
      'an SQL span under the compiled operation',
    );
  });
});
