import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { BuiltService, ROOT, within } from './helpers/built-service';
import { testDatabase } from './helpers/databases';
import { freePort } from './helpers/ports';

const PRELOAD = join(__dirname, 'helpers', 'loaded-packages.js');

/**
 * Packages that only a setting brings in: the database's driver, Redis, tracing, pretty logs,
 * metrics, the S3 client.
 */
const OPTIONAL_PACKAGES = [
  'pg',
  'better-sqlite3',
  'ioredis',
  'graphql-redis-subscriptions',
  '@opentelemetry/sdk-trace-node',
  'pino-pretty',
  'prom-client',
  '@apollo/usage-reporting-protobuf',
  '@aws-sdk/client-s3',
] as const;

/**
 * Starts the built service with `env`, answers one query, stops it, and returns which of
 * {@link OPTIONAL_PACKAGES} it loaded.
 */
async function optionalPackagesLoaded(env: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'blog-loaded-'));
  const file = join(dir, 'packages.txt');
  const service = await BuiltService.start({
    ...env,
    NODE_OPTIONS: `--require=${PRELOAD}`,
    LOADED_PACKAGES_FILE: file,
  });
  try {
    const response = await fetch(`http://127.0.0.1:${service.port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ posts(first: 1) { id } }' }),
    });
    expect(response.status).toBe(200);
    service.child.kill('SIGTERM');
    await within(service.exited, 15_000, 'the service to exit');
    const loaded = new Set(readFileSync(file, 'utf8').split('\n'));
    // The preload saw the service's own packages, or its list would prove nothing.
    expect(loaded).toContain('typeorm');
    return OPTIONAL_PACKAGES.filter((name) => loaded.has(name));
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Memory at rest: the built service loads what its configuration uses and nothing else, so that
 * a service on SQLite without Redis, tracing, pretty logs or metrics does not hold the code of
 * the others.
 */
describe('Packages the built service loads (e2e)', () => {
  const driver = testDatabase() === 'postgres' ? 'pg' : 'better-sqlite3';

  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
  }, 240_000);

  it('should load only its database driver when nothing else is configured', async () => {
    expect(await optionalPackagesLoaded({ REDIS_URL: '' })).toEqual([driver]);
  }, 60_000);

  it('should load Redis, tracing, pino-pretty, prom-client and the S3 client once their settings are on', async () => {
    const closed = await freePort();
    const loaded = await optionalPackagesLoaded({
      REDIS_URL: `redis://127.0.0.1:${closed}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closed}`,
      LOG_FORMAT: 'pretty',
      METRICS_ENABLED: 'true',
      STORAGE: 's3',
      S3_BUCKET: 'blog-images',
      S3_ENDPOINT: `http://127.0.0.1:${closed}`,
    });
    expect(loaded).toEqual(
      expect.arrayContaining([
        driver,
        'ioredis',
        'graphql-redis-subscriptions',
        '@opentelemetry/sdk-trace-node',
        'pino-pretty',
        'prom-client',
        '@aws-sdk/client-s3',
      ]),
    );
    expect(loaded).not.toContain('@apollo/usage-reporting-protobuf');
  }, 60_000);
});
