// `npm start` builds first when dist/ is missing or older than the sources.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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
  console.log('Building the service (dist/ is missing or out of date)...');
  execSync('npm run build', { stdio: 'inherit' });
}
