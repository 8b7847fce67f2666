// Compiles the service into dist/ when dist/ is missing or older than the sources: on
// `npm install` (prepare), so that the first `npm start` answers at once, and again before each
// `npm start`. Without TypeScript (`npm ci --omit=dev`) it leaves the build to the image that
// ran `npm run build`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const entry = 'dist/src/main.js';

function newestSource(dir) {
  let newest = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    const time = name.isDirectory() ? newestSource(path) : statSync(path).mtimeMs;
    newest = Math.max(newest, time);
  }
  return newest;
}

const stale =
  !existsSync(entry) ||
  Math.max(newestSource('src'), statSync('package.json').mtimeMs) > statSync(entry).mtimeMs;
if (stale) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    console.warn('build: TypeScript is not installed (dev dependencies omitted); not compiled.');
    process.exit(process.argv.includes('--install') || existsSync(entry) ? 0 : 1);
  }
  console.log('Compiling the service into dist/ (missing or out of date)...');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
