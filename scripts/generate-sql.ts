// npm run sql:generate: writes src/blog/queries/<feature>.<dialect>.sql, the SQL of every
// statement formatted for review, and removes the files of statement sets that are gone. The spec
// that keeps those files in sync does the writing, so that what it checks and what this writes
// cannot drift; src/blog/ is read only through its public API from here.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..');
const jest = require.resolve('jest/bin/jest', { paths: [root] });
const { status } = spawnSync(
  process.execPath,
  [
    jest,
    '--config',
    'jest.config.js',
    'src/blog/queries/queries.spec.ts',
    '--selectProjects=unit',
    '--silent=false',
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, SQL_GENERATE: 'write' } },
);
process.exit(status ?? 1);
