// Unit specs live beside the code (src/**/*.spec.ts); e2e specs boot the real app in test/.
// Nest 12 and some of its dependencies ship as ES modules only, which Jest's CommonJS runtime
// cannot require on Node 20: SWC compiles those packages, and our TypeScript, to CommonJS.
const ESM_ONLY_PACKAGES = [
  '@nestjs',
  '@as-integrations',
  '@graphql-tools',
  '@whatwg-node',
  '@borewit',
  '@tokenizer',
  'cross-inspect',
  'file-type',
  'strtok3',
  'token-types',
  'uint8array-extras',
];

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

const shared = {
  testEnvironment: 'node',
  rootDir: '.',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY_PACKAGES.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
};

module.exports = {
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      setupFiles: ['<rootDir>/test/helpers/env.setup.ts'],
      testTimeout: 30_000,
    },
  ],
};
