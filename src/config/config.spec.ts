import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadAppConfig } from './app.config';
import { loadAuthConfig } from './auth.config';
import { loadDatabaseConfig } from './database.config';
import { InvalidEnvironmentError } from './env';
import { loadGraphqlConfig } from './graphql.config';
import { validateEnvironment } from './index';
import { loadSiteConfig } from './site.config';

const SECRET = 's'.repeat(32);

describe('configuration', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'blog-config-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('should default to port 3000 on 127.0.0.1, development and the demo seed', () => {
    expect(loadAppConfig({})).toEqual({
      nodeEnv: 'development',
      port: 3000,
      host: '127.0.0.1',
      dataDir: './data',
      seedDemo: true,
      trustProxy: 0,
    });
    expect(loadAppConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
  });

  it('should listen on every interface in production, and on 127.0.0.1 elsewhere, unless HOST says', () => {
    expect(loadAppConfig({ NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(loadAppConfig({ NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadAppConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadAppConfig({ HOST: 'db-1.internal' }).host).toBe('db-1.internal');
    expect(loadAppConfig({ HOST: '::' }).host).toBe('::');
  });

  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['SEED_DEMO', { SEED_DEMO: 'maybe' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/blog' }],
    ['DATABASE_URL', { DATABASE_URL: 'sqlite:' }],
    ['JWT_SECRET', { JWT_SECRET: 'too-short' }],
    ['JWT_SECRET', { NODE_ENV: 'production' }],
    ['JWT_EXPIRES_IN', { JWT_EXPIRES_IN: 'forever', JWT_SECRET: SECRET }],
    ['JWT_EXPIRES_IN', { JWT_EXPIRES_IN: '0', JWT_SECRET: SECRET }],
    ['JWT_EXPIRES_IN', { JWT_EXPIRES_IN: '-5', JWT_SECRET: SECRET }],
    ['JWT_EXPIRES_IN', { JWT_EXPIRES_IN: '0s', JWT_SECRET: SECRET }],
    ['JWT_EXPIRES_IN', { JWT_EXPIRES_IN: '500ms', JWT_SECRET: SECRET }],
    ['GRAPHQL_INTROSPECTION', { GRAPHQL_INTROSPECTION: 'sometimes', JWT_SECRET: SECRET }],
    ['DATABASE_POOL_SIZE', { DATABASE_URL: 'postgres://h/db', DATABASE_POOL_SIZE: '0' }],
    ['AUTH_RATE_LIMIT', { AUTH_RATE_LIMIT: '0', JWT_SECRET: SECRET }],
    ['RATE_LIMIT_WRITES_PER_MINUTE', { RATE_LIMIT_WRITES_PER_MINUTE: '-1', JWT_SECRET: SECRET }],
    ['RATE_LIMIT_WRITES_PER_MINUTE', { RATE_LIMIT_WRITES_PER_MINUTE: 'lots', JWT_SECRET: SECRET }],
    ['REDIS_URL', { REDIS_URL: 'localhost:6379', JWT_SECRET: SECRET }],
    ['REDIS_URL', { REDIS_URL: 'http://localhost:6379', JWT_SECRET: SECRET }],
    ['REDIS_URL', { REDIS_URL: 'redis://:@@/x y', JWT_SECRET: SECRET }],
    ['REDIS_URL', { REDIS_URL: 'redis:///0', JWT_SECRET: SECRET }],
    ['REDIS_URL', { REDIS_URL: 'redis://cache:6379/zero', JWT_SECRET: SECRET }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://%%%:@@/x y' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://u:%zz@h/db' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://h:99999/db' }],
    ['HOST', { HOST: 'http://localhost', JWT_SECRET: SECRET }],
    ['HOST', { HOST: '0.0.0.0:3000', JWT_SECRET: SECRET }],
    ['HOST', { HOST: 'my_host', JWT_SECRET: SECRET }],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes', JWT_SECRET: SECRET }],
    ['TRUST_PROXY', { TRUST_PROXY: '11', JWT_SECRET: SECRET }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33', JWT_SECRET: SECRET }],
    ['TRUST_PROXY', { TRUST_PROXY: 'proxy.internal,10.0.0.1', JWT_SECRET: SECRET }],
    ['HTTP_CLIENT_CAP_EXEMPT', { HTTP_CLIENT_CAP_EXEMPT: '10.0.0.0/8,ssr', JWT_SECRET: SECRET }],
  ])('should name %s when it is invalid', (variable, env) => {
    const run = () => validateEnvironment({ DATA_DIR: dataDir, ...env });
    expect(run).toThrow(InvalidEnvironmentError);
    expect(run).toThrow(new RegExp(`^Invalid environment variable ${variable}: `));
  });

  it('should read TRUST_PROXY as a hop count, or as the addresses and ranges of the proxies', () => {
    expect(loadAppConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadAppConfig({ TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1 ' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    expect(loadAppConfig({ TRUST_PROXY: 'loopback,linklocal,uniquelocal,::1' }).trustProxy).toEqual(
      ['loopback', 'linklocal', 'uniquelocal', '::1'],
    );
    expect(loadAppConfig({ TRUST_PROXY: ',' }).trustProxy).toBe(0);
  });

  it('should read every form of DATABASE_URL', () => {
    expect(loadDatabaseConfig({ DATA_DIR: dataDir })).toMatchObject({
      type: 'sqlite',
      path: join(dataDir, 'blog.sqlite'),
    });
    expect(loadDatabaseConfig({ DATABASE_URL: 'sqlite::memory:' })).toMatchObject({
      type: 'sqlite',
      path: ':memory:',
    });
    expect(loadDatabaseConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' })).toMatchObject({
      type: 'sqlite',
      path: '/tmp/x.db',
    });
    expect(
      loadDatabaseConfig({ DATABASE_URL: 'postgresql:///blog?host=/var/run/postgresql' }),
    ).toMatchObject({ type: 'postgres' });
    expect(loadDatabaseConfig({ DATABASE_URL: 'postgres://u:p%40ss@h/db' })).toMatchObject({
      type: 'postgres',
    });
    expect(loadDatabaseConfig({ DATABASE_URL: 'postgres://u@h:5432/db' })).toMatchObject({
      type: 'postgres',
      url: 'postgres://u@h:5432/db',
      poolSize: 10,
      statementTimeoutMs: 10_000,
    });
  });

  it('should generate a secret once outside production and keep it in the data folder', () => {
    const first = loadAuthConfig({ DATA_DIR: dataDir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8')).toBe(first.jwtSecret);
    expect(loadAuthConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first.jwtSecret);
  });

  it('should use JWT_SECRET when set', () => {
    expect(loadAuthConfig({ JWT_SECRET: SECRET, NODE_ENV: 'production' })).toEqual({
      jwtSecret: SECRET,
      jwtExpiresIn: 7 * 24 * 3600,
      rateLimit: { limit: 10, windowMs: 60_000 },
      writesPerMinute: 120,
      newAccountHours: 24,
      signUpRole: 'AUTHOR',
      moderation: { holdNewAccountLinks: false, autoHideReports: 5, reportsPerHour: 10 },
    });
  });

  it('should read RATE_LIMIT_WRITES_PER_MINUTE, 0 turning the write limit off', () => {
    const writes = (value: string) =>
      loadAuthConfig({ JWT_SECRET: SECRET, RATE_LIMIT_WRITES_PER_MINUTE: value }).writesPerMinute;
    expect(writes('30')).toBe(30);
    expect(writes('0')).toBe(0);
  });

  it.each([
    ['3600', 3600],
    ['90s', 90],
    ['15m', 900],
    ['12h', 43_200],
    ['7d', 604_800],
    ['1.5h', 5400],
  ])('should read JWT_EXPIRES_IN=%s as %d seconds', (value, seconds) => {
    expect(loadAuthConfig({ JWT_SECRET: SECRET, JWT_EXPIRES_IN: value }).jwtExpiresIn).toBe(
      seconds,
    );
  });

  it('should read the site: no SITE_URL by default, and the rules of SITE_URL and SITE_POST_PATH', () => {
    expect(loadSiteConfig({})).toEqual({
      url: null,
      postPath: '/posts/{slug}',
      feedContent: 'excerpt',
    });
    expect(
      loadSiteConfig({
        SITE_URL: 'https://blog.example.com/',
        SITE_POST_PATH: '/{id}',
        FEED_CONTENT: 'full',
      }),
    ).toEqual({ url: 'https://blog.example.com', postPath: '/{id}', feedContent: 'full' });
    const problem = (env: NodeJS.ProcessEnv) => {
      try {
        loadSiteConfig(env);
      } catch (error) {
        return error instanceof InvalidEnvironmentError ? error.message : String(error);
      }
      return null;
    };
    expect(problem({ SITE_URL: 'blog.example.com' })).toMatch(/SITE_URL/);
    expect(problem({ SITE_URL: 'https://user:pass@blog.example.com' })).toMatch(/SITE_URL/);
    expect(problem({ SITE_POST_PATH: 'posts/{slug}' })).toMatch(/SITE_POST_PATH/);
    expect(problem({ SITE_POST_PATH: '/posts' })).toMatch(/SITE_POST_PATH/);
    expect(problem({ FEED_CONTENT: 'summary' })).toMatch(/FEED_CONTENT/);
  });

  it('should turn introspection off in production unless asked for', () => {
    expect(loadGraphqlConfig({}).introspection).toBe(true);
    expect(loadGraphqlConfig({ NODE_ENV: 'production' }).introspection).toBe(false);
    expect(
      loadGraphqlConfig({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' }).introspection,
    ).toBe(true);
  });
});
