import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';

/** One built file of the IDE, as scripts/build-ide.mjs lists it in dist/ide/manifest.json. */
interface ManifestEntry {
  digest: string;
  bytes: number;
  gzipBytes: number;
}

/** A file ready to send: its bytes (gzip-encoded when the client accepts it) and headers. */
export interface IdeAsset {
  body: Buffer;
  contentType: string;
  etag: string;
  gzip: boolean;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The folder scripts/build-ide.mjs writes: dist/ide of the project, from src/ or dist/src/. */
export function defaultAssetsDir(from = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'ide');
}

/**
 * The IDE's built files (React, GraphiQL, Monaco and its workers), served from the service
 * itself. Only the files the build's manifest names can be asked for, so a request cannot
 * reach anything else on disk; each is read once, on its first request.
 */
export class IdeAssets {
  private readonly files: Map<string, ManifestEntry>;
  private readonly cache = new Map<string, Promise<Buffer>>();

  constructor(readonly dir: string = defaultAssetsDir()) {
    this.files = new Map(Object.entries(readManifest(dir)));
  }

  /** False when the build has not run (`npm run build` runs it). */
  get built(): boolean {
    return this.files.has('ide.js') && this.files.has('ide.css');
  }

  async get(name: string, acceptsGzip: boolean): Promise<IdeAsset | undefined> {
    const entry = this.files.get(name);
    const contentType = CONTENT_TYPES[extname(name)];
    if (!entry || !contentType) return undefined;
    const file = acceptsGzip ? `${name}.gz` : name;
    let body = this.cache.get(file);
    if (!body) {
      body = readFile(join(this.dir, file));
      this.cache.set(file, body);
      body.catch(() => this.cache.delete(file));
    }
    // Each encoding is a representation of its own, with an ETag of its own.
    const etag = `"${entry.digest}${acceptsGzip ? '-gzip' : ''}"`;
    return { body: await body, contentType, etag, gzip: acceptsGzip };
  }
}

function readManifest(dir: string): Record<string, ManifestEntry> {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
      files?: Record<string, ManifestEntry>;
    };
    return manifest.files ?? {};
  } catch {
    return {};
  }
}
