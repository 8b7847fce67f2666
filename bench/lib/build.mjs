import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Builds dist/ when it is missing or older than the sources, with the project's own check
 * (scripts/build-if-needed.mjs, the one `npm start` runs): every bench script reads dist/.
 */
export function ensureBuild(root) {
  execFileSync(process.execPath, [join(root, 'scripts/build-if-needed.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
}
