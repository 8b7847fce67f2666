// Preloaded into the built service (`NODE_OPTIONS=--require=<this file>`) by
// test/resting-modules.e2e-spec.ts: as the process exits, it writes the packages it loaded, one a
// line, to LOADED_PACKAGES_FILE. The hooks see ES modules and CommonJS alike.
const { writeFileSync } = require('node:fs');
const { registerHooks } = require('node:module');
const { fileURLToPath } = require('node:url');

const files = new Set();
registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) files.add(fileURLToPath(url));
    return nextLoad(url, context);
  },
});

/** The package a file belongs to: the innermost `node_modules/[@scope/]name` of its path. */
function packageOf(file) {
  const names = [...file.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)];
  return names.length > 0 ? names[names.length - 1][1] : null;
}

process.on('exit', () => {
  const packages = new Set();
  for (const file of [...files, ...Object.keys(require.cache)]) {
    const name = packageOf(file);
    if (name) packages.add(name);
  }
  writeFileSync(process.env.LOADED_PACKAGES_FILE, [...packages].sort().join('\n'));
});
