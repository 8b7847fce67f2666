import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import { InvalidEnvironmentError } from './env';
import { readBlogFeatures } from './graphql.config';
import { validateEnvironment } from './index';
import {
  misspeltSetting,
  OTEL_SDK_SETTINGS,
  refuseMisspeltSettings,
  SCRIPT_SETTINGS,
  SERVICE_SETTINGS,
} from './settings';

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

/** Every NAME= line of .env.example, commented out or not. */
function namesInEnvExample(): string[] {
  const text = readFileSync(join(ROOT, '.env.example'), 'utf8');
  return [...text.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
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
      ...namesReadOutsideConfig(),
    ]);
    expect([...read].sort()).toEqual([...SERVICE_SETTINGS].sort());
  });

  it('should be the names .env.example sets, with the scripts and the OpenTelemetry SDK', () => {
    const example = namesInEnvExample();
    expect(new Set(example).size).toBe(example.length);
    const documented = new Set(example);
    const missing = [...SERVICE_SETTINGS, ...SCRIPT_SETTINGS].filter((n) => !documented.has(n));
    const known = new Set<string>([...SERVICE_SETTINGS, ...SCRIPT_SETTINGS, ...OTEL_SDK_SETTINGS]);
    const unknown = example.filter((name) => !known.has(name));
    expect({ missing, unknown }).toEqual({ missing: [], unknown: [] });
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
