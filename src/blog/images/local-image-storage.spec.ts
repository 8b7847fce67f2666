import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LocalImageStorage } from './local-image-storage';

const ID = '0190a000-0000-7000-8000-000000000001';

describe('LocalImageStorage', () => {
  let root: string;
  let storage: LocalImageStorage;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'blog-images-'));
    storage = new LocalImageStorage(root, 'https://api.example/images/');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const collect = async () => {
    const files = [];
    for await (const file of storage.list('images/')) files.push(file);
    return files.sort((a, b) => a.key.localeCompare(b.key));
  };

  it('should store a file whole under its key, leaving no temporary file', async () => {
    await storage.put(`images/${ID}/original.png`, Buffer.from('png bytes'), 'image/png');
    expect(readFileSync(join(root, 'images', ID, 'original.png'), 'utf8')).toBe('png bytes');
    expect(readdirSync(join(root, 'images', ID))).toEqual(['original.png']);
    expect(await storage.file(`images/${ID}/original.png`)).toMatchObject({ bytes: 9 });
    expect(await storage.file(`images/${ID}/missing.png`)).toBeNull();
  });

  it('should list every file under the prefix with its size and time', async () => {
    expect(await collect()).toEqual([]);
    await storage.put(`images/${ID}/original.png`, Buffer.from('a'), 'image/png');
    await storage.put(`images/${ID}/320.webp`, Buffer.from('bb'), 'image/webp');
    const files = await collect();
    expect(files.map(({ key, bytes }) => [key, bytes])).toEqual([
      [`images/${ID}/320.webp`, 2],
      [`images/${ID}/original.png`, 1],
    ]);
    expect(files[0]!.modifiedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('should remove files and their emptied folder, missing ones being no error', async () => {
    await storage.put(`images/${ID}/original.png`, Buffer.from('a'), 'image/png');
    await storage.put(`images/${ID}/320.webp`, Buffer.from('b'), 'image/webp');
    await storage.remove([`images/${ID}/original.png`, `images/${ID}/gone.png`]);
    expect(readdirSync(join(root, 'images', ID))).toEqual(['320.webp']);
    await storage.remove([`images/${ID}/320.webp`]);
    expect(readdirSync(join(root, 'images'))).toEqual([]);
  });

  it('should refuse a key that leads out of its folder', async () => {
    await expect(storage.put('../escape.png', Buffer.from('x'), 'image/png')).rejects.toThrow(
      /outside/,
    );
    await expect(storage.file('images/../../etc/passwd')).rejects.toThrow(/outside/);
  });

  it('should make absolute URLs under its base', () => {
    expect(storage.publicUrl(`images/${ID}/640.webp`)).toBe(
      `https://api.example/images/${ID}/640.webp`,
    );
  });
});
