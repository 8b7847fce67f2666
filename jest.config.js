// Unit specs live beside the code (src/**/*.spec.ts); e2e specs boot the real app in test/.
// The e2e suites run on SQLite always, and again on PostgreSQL when TEST_POSTGRES_URL is set
// (required with CI=true).
//
// Nest 12 and some of its dependencies ship as ES modules only, which Jest's own CommonJS module
// runtime cannot require, on any Node: ts-jest compiles those packages, and our TypeScript, to
// CommonJS (transpile only; `npm run build` and lint do the type checking), and
// test/helpers/esm-transformer.js rewrites the `import.meta` that CommonJS lacks.
const ESM_ONLY_PACKAGES = [
  '@nestjs',
  '@as-integrations',
  '@graphql-tools',
  '@whatwg-node',
  '@borewit',
  '@tokenizer',
  'cross-inspect',
  'feed',
  'file-type',
  'strtok3',
  'token-types',
  'uint8array-extras',
  // marked; sanitize-html's parser (htmlparser2) and jsdom's (parse5), with what they load
  'marked',
  'htmlparser2',
  'domelementtype',
  'domhandler',
  'domutils',
  'dom-serializer',
  'entities',
  'parse5',
  'parse5-parser-stream',
  'tough-cookie',
  '@exodus/bytes',
  'bcp-47',
  'bcp-47-match',
  'is-alphabetical',
  'is-alphanumerical',
  'is-decimal',
];

const tsJest = [
  '<rootDir>/test/helpers/esm-transformer.js',
  { tsconfig: '<rootDir>/tsconfig.jest.json' },
];

const shared = {
  testEnvironment: 'node',
  rootDir: '.',
  transform: { '^.+\\.(t|j|mj)s$': tsJest },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY_PACKAGES.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
};

const e2e = {
  ...shared,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  setupFiles: ['<rootDir>/test/helpers/env.setup.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/helpers/timeout.setup.ts'],
};

/** Suites that drive Debian's Chromium (test/helpers/browser.ts); SQLite only. */
const BROWSER = ['ide\\.browser', 'apollo-client\\.browser', 'host-app-ide\\.browser'];
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** Suites about SQLite or about no database at all run once, in the SQLite project. */
const SQLITE_ONLY = [
  'embedded-default',
  'blog-module',
  'schema',
  'migrations-cli',
  'sqlite-gc',
  'production-boot',
  'dev-defaults',
  'check-contract',
  'docs',
  'docs-code',
  ...BROWSER,
];
/** Suites about PostgreSQL alone: they run in the PostgreSQL project only. */
const POSTGRES_ONLY = [
  'postgres-timestamps',
  'scheduled-publishing-instances',
  'image-upload-killed',
];
/** Suites that need PostgreSQL and Redis together. */
const REDIS = ['redis-pubsub', 'redis-failure', 'health-redis', 'notifications-redis'];

const ignore = (names) => names.map((name) => `/test/${name}\\.e2e-spec\\.ts$`);
const required = process.env.CI === 'true';

/** The suites this run leaves out, and why: the summary reporter says it in its closing line. */
const notRun = [];

const hasChromium = require('node:fs').existsSync(CHROMIUM);
if (required && !hasChromium) {
  throw new Error(`CI=true needs Chromium at ${CHROMIUM}: the browser suites are required.`);
}
if (!hasChromium) notRun.push(`the browser suites (no Chromium at ${CHROMIUM})`);

const projects = [
  { ...shared, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
  {
    ...e2e,
    displayName: 'e2e-sqlite',
    testPathIgnorePatterns: ignore([...POSTGRES_ONLY, ...REDIS, ...(hasChromium ? [] : BROWSER)]),
  },
];

if (required && !(process.env.TEST_POSTGRES_URL && process.env.TEST_REDIS_URL)) {
  throw new Error('CI=true needs TEST_POSTGRES_URL and TEST_REDIS_URL: those suites are required.');
}
if (process.env.TEST_POSTGRES_URL) {
  const skipped = process.env.TEST_REDIS_URL ? [] : REDIS;
  if (skipped.length) notRun.push('the Redis suites (TEST_REDIS_URL is not set)');
  projects.push({
    ...e2e,
    displayName: 'e2e-postgres',
    setupFiles: [...e2e.setupFiles, '<rootDir>/test/helpers/env.postgres.ts'],
    testPathIgnorePatterns: ignore([...SQLITE_ONLY, ...skipped]),
  });
} else {
  notRun.push('the PostgreSQL and Redis suites (TEST_POSTGRES_URL is not set)');
}

module.exports = {
  projects,
  // One worker per core. Jest's default leaves one core free, which on a 2-core machine runs the
  // whole suite in one process, though most of a file's time is spent waiting on a database, a
  // child process or a socket.
  maxWorkers: '100%',
  reporters: ['default', ['<rootDir>/test/helpers/summary-reporter.js', { notRun }]],
};
