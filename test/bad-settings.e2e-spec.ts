import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { within } from './helpers/built-service';
import { testDatabase } from './helpers/databases';
import { freePort } from './helpers/ports';
import { buildIfNeeded, SpawnedService } from './helpers/spawned-service';

const SECRET = 'bad-settings-e2e-secret-that-is-long-enough';
/** A line of a stack trace, as Node and Nest print them. */
const STACK_LINE = /^\s+at /m;

/** A URL like TEST_POSTGRES_URL's, with `change` applied. */
function postgresUrl(change: (url: URL) => void): string {
  const url = new URL(process.env.TEST_POSTGRES_URL!);
  change(url);
  return url.toString();
}

type Case = [string, string, () => Record<string, string>];

/** Settings refused before anything starts, on any database. */
const SETTINGS: Case[] = [
  ['JWT_SECRET', 'at least 32 characters', () => ({ JWT_SECRET: 'tooshort' })],
  ['JWT_EXPIRES_IN', 'forever', () => ({ JWT_EXPIRES_IN: 'forever' })],
  ['CORS_ORIGINS', 'origins like', () => ({ CORS_ORIGINS: 'foo' })],
  ['GRAPHQL_MAX_DEPTH', 'expected 1-1000', () => ({ GRAPHQL_MAX_DEPTH: '0' })],
  ['REDIS_URL', 'redis://', () => ({ REDIS_URL: 'http://127.0.0.1:6379' })],
  ['REDIS_URL', 'does not parse', () => ({ REDIS_URL: 'redis://:@@/x y' })],
  ['TRUSTED_DOCUMENTS', 'cannot read', () => ({ TRUSTED_DOCUMENTS: '/no/such/manifest.json' })],
  ['DATABASE_URL', 'does not parse', () => ({ DATABASE_URL: 'postgres://%%%:@@/x y' })],
  ['HOST', 'does not resolve', () => ({ HOST: 'no-such-host.invalid' })],
  ['HOST', 'no scheme or port', () => ({ HOST: 'http://localhost:3000' })],
];

/** Databases that PostgreSQL refuses for good. */
const DATABASES: Case[] = [
  [
    'DATABASE_URL',
    'does not exist (3D000)',
    () => ({
      DATABASE_URL: postgresUrl((url) => {
        url.pathname = `/blog_missing_${randomBytes(4).toString('hex')}`;
      }),
    }),
  ],
  [
    'DATABASE_URL',
    'connecting fails for good',
    () => ({
      DATABASE_URL: postgresUrl((url) => {
        url.username = `nobody_${randomBytes(4).toString('hex')}`;
        url.password = 'wrong-password';
      }),
    }),
  ],
];

/**
 * The built service stops at once on a bad setting, with one line that names the variable and
 * the rule, and exit code 1: no stack, no retries. The SQLite project tries the settings, the
 * PostgreSQL project the databases that the server refuses.
 */
describe('Bad settings (e2e)', () => {
  const services: SpawnedService[] = [];
  const start = (env: Record<string, string>, dir?: string) => {
    const service = new SpawnedService({ PORT: '0', JWT_SECRET: SECRET, ...env }, dir);
    services.push(service);
    return service;
  };

  beforeAll(buildIfNeeded, 240_000);
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop()));
  });

  const cases = testDatabase() === 'postgres' ? DATABASES : SETTINGS;

  it.each(cases)('should stop with one line naming %s (%s)', async (variable, rule, env) => {
    const service = start(env());
    const code = await within(service.exited, 30_000, 'the service to exit');
    expect({ code, lines: service.lines }).toEqual({
      code: 1,
      lines: [expect.stringContaining(`Invalid environment variable ${variable}: `)],
    });
    expect(service.log).toContain(rule);
    expect(service.log).not.toMatch(STACK_LINE);
  });

  if (testDatabase() === 'sqlite') {
    it('should refuse a name in .env one typo away from a setting, naming both', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'blog-bad-env-'));
      writeFileSync(join(dir, '.env'), 'MY_TOOL_TOKEN=abc\nJWT_SECRT=whatever\n');
      const service = start({}, dir);
      const code = await within(service.exited, 30_000, 'the service to exit');
      expect({ code, lines: service.lines }).toEqual({
        code: 1,
        lines: [expect.stringMatching(/JWT_SECRT: .*did you mean JWT_SECRET\?$/)],
      });
    });

    // Nest has started by then, so its start-up lines come first.
    it('should name PORT when the port is taken, with no stack', async () => {
      const port = await freePort();
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
      try {
        const service = start({ PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false' });
        const code = await within(service.exited, 60_000, 'the service to exit');
        expect(code).toBe(1);
        expect(service.lines).toContain(
          `Invalid environment variable PORT: ${port} is already in use on 127.0.0.1`,
        );
        expect(service.log).not.toMatch(STACK_LINE);
      } finally {
        await new Promise((resolve) => holder.close(resolve));
      }
    });
  }

  if (testDatabase() === 'postgres') {
    it('should wait for a server that is not up yet, and start once it answers', async () => {
      const port = await freePort();
      const target = new URL(process.env.TEST_POSTGRES_URL!);
      const service = start({
        DATABASE_URL: postgresUrl((url) => {
          url.hostname = '127.0.0.1';
          url.port = String(port);
        }),
        SEED_DEMO: 'false',
      });
      await service.waitFor(
        /Database not reachable yet \(attempt 1 of 10\): .*ECONNREFUSED/,
        'a retry',
      );
      const proxy = await forward(port, target.hostname, Number(target.port || 5432));
      try {
        expect(await service.port()).toBeGreaterThan(0);
        expect(service.log).not.toMatch(/Invalid environment variable/);
      } finally {
        await service.stop();
        await proxy.close();
      }
    });
  }
});

/** A TCP forwarder from `port` of 127.0.0.1 to the server: PostgreSQL "coming up" late. */
async function forward(port: number, host: string, targetPort: number) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    upstream.connect(targetPort, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
