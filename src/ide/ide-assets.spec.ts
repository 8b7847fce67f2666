import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { defaultAssetsDir, IdeAssets } from './ide-assets';

describe('IdeAssets', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'blog-ide-assets-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function writeBuild(files: Record<string, string>): void {
    const entries: Record<string, unknown> = {};
    for (const [name, body] of Object.entries(files)) {
      writeFileSync(join(dir, name), body);
      writeFileSync(join(dir, `${name}.gz`), `gzip:${body}`);
      entries[name] = { digest: `digest-of-${name}`, bytes: body.length, gzipBytes: 0 };
    }
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ files: entries }));
  }

  it('should say it is not built when the folder has no manifest', async () => {
    const assets = new IdeAssets(join(dir, 'missing'));
    expect(assets.built).toBe(false);
    expect(await assets.get('ide.js', false)).toBeUndefined();
  });

  it('should serve the files of the manifest, plain or gzip, each with its own ETag', async () => {
    writeBuild({ 'ide.js': 'js', 'ide.css': 'css' });
    const assets = new IdeAssets(dir);
    expect(assets.built).toBe(true);
    expect(await assets.get('ide.js', false)).toEqual({
      body: Buffer.from('js'),
      contentType: 'text/javascript; charset=utf-8',
      etag: '"digest-of-ide.js"',
      gzip: false,
    });
    expect(await assets.get('ide.css', true)).toMatchObject({
      body: Buffer.from('gzip:css'),
      contentType: 'text/css; charset=utf-8',
      etag: '"digest-of-ide.css-gzip"',
      gzip: true,
    });
  });

  it('should refuse any name the manifest does not list as a script or a stylesheet', async () => {
    writeBuild({ 'ide.js': 'js', 'ide.css': 'css', 'notes.txt': 'text' });
    writeFileSync(join(dir, 'other.js'), 'not built');
    const assets = new IdeAssets(dir);
    for (const name of ['other.js', 'manifest.json', 'notes.txt', '../ide.js', 'ide.js.gz']) {
      expect(await assets.get(name, false)).toBeUndefined();
    }
  });

  it('should find dist/ide of the project from src/ide and from dist/src/ide', () => {
    writeFileSync(join(dir, 'package.json'), '{}');
    for (const from of ['src/ide', 'dist/src/ide']) {
      mkdirSync(join(dir, from), { recursive: true });
      expect(defaultAssetsDir(join(dir, from))).toBe(join(dir, 'dist', 'ide'));
    }
  });
});
