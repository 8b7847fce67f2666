import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import { loadCorsConfig } from './cors.config';
import { InvalidEnvironmentError } from './env';
import { readBlogFeatures } from './graphql.config';
import { loadIdeConfig } from './ide.config';
import {
  loadAppConfig,
  loadAuthConfig,
  loadDatabaseConfig,
  loadGraphqlConfig,
  loadHttpConfig,
  loadObservabilityConfig,
  loadRedisConfig,
  loadShutdownConfig,
  loadTrustedDocumentsConfig,
  validateEnvironment,
} from './index';
import { misspeltSetting, refuseMisspeltSettings, SERVICE_SETTINGS } from './settings';
import { renderEnvExample, SETTINGS_FILES } from './settings-reference';
import { SETTING_LIST, SETTINGS } from './settings.schema';
import { BLOG_FEATURE_NAMES } from '../blog';

const ROOT = join(__dirname, '..', '..');
const SECRET = 's'.repeat(32);

/** The names `validateEnvironment` reads from `env`, recorded by a proxy. */
function namesRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const proxy = new Proxy(env, {
    get: (target, name) => {
      if (typeof name === 'string') read.add(name);
      return target[name as string];
    },
  });
  validateEnvironment(proxy);
  return read;
}

/** `process.env.X` read anywhere in src/ outside the config loaders (none today). */
function namesReadOutsideConfig(): Set<string> {
  const names = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        if (relative(ROOT, path).startsWith(join('src', 'config'))) continue;
        for (const match of readFileSync(path, 'utf8').matchAll(
          /process\.env\.([A-Z][A-Z0-9_]*)/g,
        )) {
          names.add(match[1]);
        }
      }
    }
  };
  visit(join(ROOT, 'src'));
  return names;
}

/** What every loader makes of `env`. */
function loadEverything(env: NodeJS.ProcessEnv) {
  return {
    app: loadAppConfig(env),
    auth: loadAuthConfig(env),
    cors: loadCorsConfig(env),
    database: loadDatabaseConfig(env),
    graphql: loadGraphqlConfig(env),
    http: loadHttpConfig(env),
    ide: loadIdeConfig(env),
    observability: loadObservabilityConfig(env),
    redis: loadRedisConfig(env),
    shutdown: loadShutdownConfig(env),
    trustedDocuments: loadTrustedDocumentsConfig(env),
  };
}

describe('the list of settings', () => {
  // The development branch writes a generated JWT secret into DATA_DIR.
  const dataDir = mkdtempSync(join(tmpdir(), 'blog-settings-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('should be exactly what the configuration loaders read, on every branch', () => {
    const read = new Set([
      // development: the generated secret, the schema file, any CORS origin
      ...namesRead({ DATA_DIR: dataDir }),
      // production on PostgreSQL with the OTLP endpoint and trusted documents unset
      ...namesRead({
        NODE_ENV: 'production',
        JWT_SECRET: SECRET,
        DATABASE_URL: 'postgres://u@h:5432/db',
        CORS_ORIGINS: 'https://app.example.com',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
      // images in a bucket
      ...namesRead({ DATA_DIR: dataDir, STORAGE: 's3', S3_BUCKET: 'blog-images' }),
      ...namesReadOutsideConfig(),
    ]);
    expect([...read].sort()).toEqual([...SERVICE_SETTINGS].sort());
  });
});

describe('the settings schema', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'blog-settings-schema-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each(SETTINGS_FILES.map((file) => [file.path, file.render] as const))(
    'should match %s (run `npm run docs:settings` and commit what it writes)',
    (path, render) => {
      expect(readFileSync(join(ROOT, path), 'utf8')).toBe(render());
    },
  );

  it('should show the defaults in .env.example: uncommenting every line changes nothing', () => {
    const shown = Object.fromEntries(
      [...renderEnvExample().matchAll(/^# ([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(([, name, value]) => [
        name,
        value,
      ]),
    );
    expect(Object.keys(shown)).toEqual(SETTING_LIST.map((setting) => setting.name));
    const defaults = { DATA_DIR: dataDir };
    expect(loadEverything({ ...shown, ...defaults })).toEqual(loadEverything(defaults));
  });

  it.each(
    SETTING_LIST.flatMap((setting) =>
      setting.type === 'integer' && typeof setting.max === 'number'
        ? [[setting.name, setting.min, setting.max] as const]
        : [],
    ),
  )('should hold %s to the bounds the reference gives, %d to %d', (name, min, max) => {
    const env = (value: number) => ({
      DATA_DIR: dataDir,
      // DATABASE_POOL_SIZE is read on PostgreSQL only.
      ...(name === 'DATABASE_POOL_SIZE' ? { DATABASE_URL: 'postgres://u@h:5432/db' } : {}),
      // The S3 settings are read with STORAGE=s3 only.
      ...(name.startsWith('S3_') ? { STORAGE: 's3', S3_BUCKET: 'blog-images' } : {}),
      [name]: String(value),
    });
    expect(() => validateEnvironment(env(min))).not.toThrow();
    expect(() => validateEnvironment(env(max))).not.toThrow();
    const outside = () => validateEnvironment(env(max + 1));
    expect(outside).toThrow(new RegExp(`^Invalid environment variable ${name}: expected ${min}-`));
  });

  it('should name every optional feature of the blog in BLOG_FEATURES', () => {
    const { summary, allowed } = SETTINGS.BLOG_FEATURES;
    for (const text of [summary, allowed]) {
      const named = [...text.matchAll(/`([a-z]+)`/g)].map(([, name]) => name);
      expect(named).toEqual(['all', 'none', ...BLOG_FEATURE_NAMES]);
    }
  });
});

describe('misspelt settings in .env', () => {
  it.each([
    ['JWT_SECRT', 'JWT_SECRET'],
    ['JWT_SECERT', 'JWT_SECRET'],
    ['jwt_secret', 'JWT_SECRET'],
    ['DATABASE_URI', 'DATABASE_URL'],
    ['REDIS_URI', 'REDIS_URL'],
    ['NODE_ENVS', 'NODE_ENV'],
    ['HOSTS', 'HOST'],
    ['OTEL_EXPORTER_OTLP_ENDPONT', 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    ['TRUSTED_DOCUMENT', 'TRUSTED_DOCUMENTS'],
    ['BLOG_FEATURE', 'BLOG_FEATURES'],
  ])('should take %s for %s', (name, setting) => {
    expect(misspeltSetting(name)).toBe(setting);
  });

  it.each([
    'JWT_SECRET',
    'OTEL_SERVICE_NAME',
    'CONTRACT_FILE',
    'PGHOST',
    'PGPORT',
    'DATABASE_USER',
    'NODE_OPTIONS',
    'POSTGRES_PASSWORD',
    'VITE_API_URL',
    'HOME',
    'TZ',
  ])('should leave %s alone', (name) => {
    expect(misspeltSetting(name)).toBeUndefined();
  });

  it('should refuse the first misspelt name, naming it and the setting it resembles', () => {
    const run = () => refuseMisspeltSettings(['PGHOST', 'JWT_SECRT', 'PORT']);
    expect(run).toThrow(InvalidEnvironmentError);
    expect(run).toThrow(/^Invalid environment variable JWT_SECRT: .*did you mean JWT_SECRET\?$/);
    expect(() => refuseMisspeltSettings(['PGHOST', 'PORT', 'MY_TOOL_TOKEN'])).not.toThrow();
  });
});

describe('BLOG_FEATURES', () => {
  const none = { search: false, tags: false, notifications: false, bookmarks: false };
  const all = { search: true, tags: true, notifications: true, bookmarks: true };

  it.each([
    [undefined, all],
    ['', all],
    ['all', all],
    ['ALL', all],
    ['none', none],
    ['tags', { ...none, tags: true }],
    [' search , Bookmarks ', { ...none, search: true, bookmarks: true }],
    ['search,tags,notifications,bookmarks', all],
  ])('should read %p as the features it names', (value, features) => {
    expect(readBlogFeatures({ BLOG_FEATURES: value })).toEqual(features);
  });

  it.each(['serach', 'tags,,search', 'tags;search', 'all,tags', 'comments'])(
    'should refuse %p in one line naming the variable and the features',
    (value) => {
      const read = () => readBlogFeatures({ BLOG_FEATURES: value });
      expect(read).toThrow(InvalidEnvironmentError);
      expect(read).toThrow(
        /^Invalid environment variable BLOG_FEATURES: ".*" is not a feature; expected all, none or a comma-separated list of search, tags, notifications, bookmarks$/,
      );
    },
  );
});
