import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresDatabase, testDatabase } from './helpers/databases';

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
const ROOT = join(__dirname, '..');

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
  const output: string[] = [];
  let child: ChildProcess | undefined;
  let baseUrl: string;
  let dataDir: string;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    const receiverPort = (receiver.server.address() as AddressInfo).port;
    dataDir = mkdtempSync(join(tmpdir(), 'blog-tracing-'));
    let databaseUrl = `sqlite:${join(dataDir, 'blog.sqlite')}`;
    if (testDatabase() === 'postgres') {
      const database = await createPostgresDatabase();
      databaseUrl = database.url;
      dropDatabase = database.drop;
    }
    child = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        JWT_SECRET: 'tracing-e2e-secret-that-is-long-enough-for-hs256',
        LOG_LEVEL: 'info',
        METRICS_ENABLED: 'true',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_SERVICE_NAME: 'blog-tracing-e2e',
      },
    });
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const port = await until(
      () => /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output.join(''))?.[1],
      `the service to start; it wrote:\n${output.join('')}`,
      60_000,
    );
    baseUrl = `http://127.0.0.1:${port}`;
  }, 240_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child!.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await new Promise((resolve) => receiver.server.close(resolve));
    await dropDatabase?.();
    rmSync(dataDir, { recursive: true, force: true });
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

    const logLine = output
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
});
