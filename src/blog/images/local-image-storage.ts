import { randomBytes } from 'node:crypto';
import { Dirent } from 'node:fs';
import { mkdir, open, opendir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

import { IMAGES_PREFIX } from './image-files';
import type { ImageStorage, StoredFile } from './image-storage';

/** A stored file as the image route serves it: where it is, its size and when it was written. */
export interface LocalFile {
  path: string;
  bytes: number;
  modifiedAt: Date;
}

/** The suffix of a file being written; renamed away once whole. */
const TEMPORARY = '.tmp';

/**
 * Image files on the local disk, under `root` (`DATA_DIR`): the key `images/{id}/{name}` is the
 * file `{root}/images/{id}/{name}`. A file is written under a temporary name, flushed, then
 * renamed into place, so that a reader or a crash never sees part of one. URLs are
 * `{baseUrl}/{id}/{name}`, where `baseUrl` is where the module's `GET /images` route is reached
 * (`https://api.example.com/images`).
 */
export class LocalImageStorage implements ImageStorage {
  readonly root: string;
  private readonly baseUrl: string;

  constructor(root: string, baseUrl: string) {
    this.root = resolve(root);
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async put(key: string, body: Buffer, _contentType: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomBytes(6).toString('hex')}${TEMPORARY}`;
    try {
      const file = await open(temporary, 'wx');
      try {
        await file.writeFile(body);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async remove(keys: readonly string[]): Promise<void> {
    const folders = new Set<string>();
    for (const key of keys) {
      const path = this.pathOf(key);
      await rm(path, { force: true });
      folders.add(dirname(path));
    }
    // An image's folder goes with its last file; one still holding files (or gone) stays as it is.
    for (const folder of folders) {
      if (folder === join(this.root, IMAGES_PREFIX)) continue;
      await rmdir(folder).catch(() => undefined);
    }
  }

  async *list(prefix: string): AsyncIterable<StoredFile> {
    const top = this.pathOf(prefix);
    yield* this.walk(top, prefix.replace(/\/?$/, '/'));
  }

  publicUrl(key: string): string {
    const path = key.startsWith(IMAGES_PREFIX) ? key.slice(IMAGES_PREFIX.length) : key;
    return `${this.baseUrl}/${path}`;
  }

  /** The file of `key`, or null when there is none. */
  async file(key: string): Promise<LocalFile | null> {
    const path = this.pathOf(key);
    try {
      const found = await stat(path);
      return found.isFile() ? { path, bytes: found.size, modifiedAt: found.mtime } : null;
    } catch {
      return null;
    }
  }

  /** The path of a key, which must stay under the root: keys are made by the service. */
  private pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (path !== this.root && !path.startsWith(this.root + sep)) {
      throw new Error(`The key ${JSON.stringify(key)} is outside the image folder.`);
    }
    return path;
  }

  private async *walk(folder: string, keyPrefix: string): AsyncIterable<StoredFile> {
    let entries: AsyncIterable<Dirent>;
    try {
      entries = await opendir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for await (const entry of entries) {
      const path = join(folder, entry.name);
      const key = `${keyPrefix}${entry.name}`;
      if (entry.isDirectory()) {
        yield* this.walk(path, `${key}/`);
      } else if (entry.isFile()) {
        const found = await stat(path).catch(() => null);
        if (found) yield { key, bytes: found.size, modifiedAt: found.mtime };
      }
    }
  }
}
