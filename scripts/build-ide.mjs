// Bundles the GraphiQL page (src/ide/browser) into dist/ide with esbuild: React, GraphiQL,
// Monaco and its web workers, fonts inlined in the CSS. The service serves
// these files itself (src/ide), so the IDE works with no internet. Runs on `npm install`
// (prepare) and in `npm run build`; dist/ is not in git.
//
// `--if-missing` builds only when dist/ide has no manifest (used by `npm start`).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'ide');
const manifestPath = join(outdir, 'manifest.json');

if (process.argv.includes('--if-missing') && existsSync(manifestPath)) process.exit(0);

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // `npm ci --omit=dev`: nothing to build with; the service then says the IDE is not built.
  console.warn('build-ide: esbuild is not installed (dev dependencies omitted); IDE not built.');
  process.exit(0);
}

/**
 * Monaco's line HTML carries `style` attributes, which the page's CSP refuses; these files'
 * `innerHTML =` / `insertAdjacentHTML` calls go through src/ide/browser/monaco-inline-styles.tsx
 * instead. Each file must still contain the calls: a Monaco upgrade that moves them fails here.
 */
const MONACO_HTML_WRITES = {
  'vs/editor/browser/view/viewLayer.js': 3,
  'vs/editor/browser/view/domLineBreaksComputer.js': 1,
  'vs/editor/contrib/stickyScroll/browser/stickyScrollWidget.js': 1,
  'vs/editor/contrib/inlineCompletions/browser/view/ghostTextView.js': 1,
  'vs/editor/standalone/browser/colorizer.js': 1,
};
const inlineStyles = join(root, 'src/ide/browser/monaco-inline-styles.tsx');

const patched = new Set();
const monacoInlineStyles = {
  name: 'monaco-inline-styles',
  setup(build) {
    build.onLoad({ filter: /monaco-editor[\\/]esm[\\/]vs[\\/].*\.js$/ }, async (args) => {
      const file = args.path.split('\\').join('/');
      const key = Object.keys(MONACO_HTML_WRITES).find((suffix) => file.endsWith(suffix));
      if (!key) return undefined;
      patched.add(key);
      let count = 0;
      const source = (await readFile(args.path, 'utf8'))
        .replace(/([\w.]+)\.innerHTML = ([\w.]+);/g, (_, target, html) => {
          count += 1;
          return `__ideInlineStyles.setInnerHtml(${target}, ${html});`;
        })
        .replace(/([\w.]+)\.insertAdjacentHTML\(('\w+'), ([\w.]+)\);/g, (_, target, at, html) => {
          count += 1;
          return `__ideInlineStyles.insertAdjacentHtml(${target}, ${at}, ${html});`;
        });
      if (count !== MONACO_HTML_WRITES[key]) {
        throw new Error(`${key}: expected ${MONACO_HTML_WRITES[key]} HTML writes, found ${count}`);
      }
      const helper = JSON.stringify(inlineStyles);
      return { contents: `import * as __ideInlineStyles from ${helper};\n${source}`, loader: 'js' };
    });
  },
};

const common = {
  bundle: true,
  minify: true,
  target: 'es2022',
  outdir,
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
};

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
const started = Date.now();
const [page, workers] = await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: { ide: join(root, 'src/ide/browser/ide.tsx') },
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    jsx: 'automatic',
    plugins: [monacoInlineStyles],
    loader: { '.ttf': 'dataurl', '.woff': 'dataurl', '.woff2': 'dataurl', '.svg': 'dataurl' },
  }),
  // Classic scripts, loaded by `new Worker(url)` (see page-setup.tsx).
  esbuild.build({
    ...common,
    entryPoints: {
      'editor.worker': 'monaco-editor/esm/vs/editor/editor.worker.js',
      'json.worker': 'monaco-editor/esm/vs/language/json/json.worker.js',
      'graphql.worker': 'monaco-graphql/esm/graphql.worker.js',
    },
    format: 'iife',
  }),
]);

const unpatched = ['vs/editor/browser/view/viewLayer.js'].filter((key) => !patched.has(key));
if (unpatched.length) throw new Error(`Monaco files not bundled any more: ${unpatched.join(', ')}`);

// Every file with its digest (the ETag) and a gzip copy, so the service serves them from memory.
const files = {};
let total = 0;
let totalGzip = 0;
for (const path of [
  ...Object.keys(page.metafile.outputs),
  ...Object.keys(workers.metafile.outputs),
]) {
  const absolute = join(root, path);
  const name = relative(outdir, absolute).split('\\').join('/');
  const body = await readFile(absolute);
  const gzip = gzipSync(body, { level: 9 });
  await writeFile(`${absolute}.gz`, gzip);
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  files[name] = { digest, bytes: body.length, gzipBytes: gzip.length };
  total += body.length;
  totalGzip += gzip.length;
}
await writeFile(manifestPath, `${JSON.stringify({ files }, null, 2)}\n`);
const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
console.log(
  `build-ide: ${Object.keys(files).length} files in dist/ide, ${mb(total)} (${mb(totalGzip)} gzipped), ` +
    `${((Date.now() - started) / 1000).toFixed(1)} s`,
);
