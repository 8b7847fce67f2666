import sharp from 'sharp';

import { ImageRefusal } from './image-processor';
import { IMAGE_STORAGE, ImageStorage, StoredFile } from './image-storage';
import { ImagesService, normaliseAlt, uploadLeaseMs } from './images.service';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { Sql, statement } from '../common/sql';
import { newId } from '../common/uuid';
import {
  BlogTestingModule,
  createBlogTestingModule,
  refusalOf,
} from '../testing/blog-testing-module';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

/**
 * Image files in memory, with their times, and a way to make a write fail or run something in
 * the middle of an upload.
 */
class MemoryStorage implements ImageStorage {
  readonly files = new Map<string, { body: Buffer; modifiedAt: Date }>();
  /** Runs before each put, with how many puts came before; throwing fails that put. */
  beforePut: (count: number) => Promise<void> | void = () => undefined;
  failRemoves = false;
  private puts = 0;

  async put(key: string, body: Buffer): Promise<void> {
    await this.beforePut(this.puts++);
    this.files.set(key, { body, modifiedAt: new Date() });
  }

  async remove(keys: readonly string[]): Promise<void> {
    if (this.failRemoves) throw new Error('the disk is gone');
    for (const key of keys) this.files.delete(key);
  }

  async *list(prefix: string): AsyncIterable<StoredFile> {
    for (const [key, { body, modifiedAt }] of this.files) {
      if (key.startsWith(prefix)) yield { key, bytes: body.length, modifiedAt };
    }
  }

  publicUrl(key: string): string {
    return `https://cdn.example/${key}`;
  }
}

const png = (width: number, height = width) =>
  sharp({ create: { width, height, channels: 3, background: '#369' } })
    .png()
    .toBuffer();

describe('ImagesService', () => {
  let blog: BlogTestingModule;
  let images: ImagesService;
  let storage: MemoryStorage;
  let owner: User;
  const place = { run: <T>(work: () => Promise<T>) => work() };

  const start = async (quotaBytes = 10_000_000) => {
    storage = new MemoryStorage();
    blog = await createBlogTestingModule([
      ImagesService,
      UsersService,
      { provide: IMAGE_STORAGE, useValue: storage },
      {
        provide: BLOG_MODULE_OPTIONS,
        useValue: { jwtSecret: 'x'.repeat(32), images: { quotaBytes } },
      },
    ]);
    images = blog.moduleRef.get(ImagesService);
    owner = await blog.signUp();
  };
  const rows = async () =>
    Number((await blog.dataSource.query('SELECT COUNT(*) AS n FROM images'))[0].n);
  const uploadsUnderWay = async (): Promise<string[]> =>
    (await blog.dataSource.query('SELECT id FROM image_uploads ORDER BY id')).map(
      (row: { id: string }) => row.id,
    );
  const afterTheLease = () => new Date(Date.now() + images.uploadLeaseMs + 1000);

  afterEach(() => blog.close());

  it('should store the files of an upload, then its row, its bytes their sum', async () => {
    await start();
    const image = await images.upload(owner, await png(700, 350), 'Blue', place);
    const keys = [...storage.files.keys()].sort();
    expect(keys).toEqual(
      ['320.png', '320.webp', '640.png', '640.webp', 'original.png']
        .map((name) => `images/${image.id}/${name}`)
        .sort(),
    );
    const sum = [...storage.files.values()].reduce((total, file) => total + file.body.length, 0);
    expect(image).toMatchObject({
      width: 700,
      height: 350,
      format: 'png',
      alt: 'Blue',
      bytes: sum,
    });
    expect(await images.find(image.id)).toEqual(image);
    expect(images.urlOf(image)).toBe(`https://cdn.example/images/${image.id}/original.png`);
    expect(images.avatarUrlOf(image)).toBe(`https://cdn.example/images/${image.id}/320.png`);
    expect(
      images.variantsOf(image).map(({ width, height, format }) => [width, height, format]),
    ).toEqual([
      [320, 160, 'webp'],
      [320, 160, 'png'],
      [640, 320, 'webp'],
      [640, 320, 'png'],
    ]);
  });

  it('should use the full-size file as the avatar of an image no wider than 320', async () => {
    await start();
    const image = await images.upload(owner, await png(200), null, place);
    expect(image.storedVariants).toEqual([]);
    expect(images.avatarUrlOf(image)).toBe(images.urlOf(image));
  });

  it('should remove the files already written when a write fails part-way, and write no row', async () => {
    await start();
    storage.beforePut = (count) => {
      if (count === 2) throw new Error('the disk is full');
    };
    await expect(images.upload(owner, await png(700), null, place)).rejects.toThrow(
      'the disk is full',
    );
    expect(storage.files.size).toBe(0);
    expect(await rows()).toBe(0);
    expect(await uploadsUnderWay()).toEqual([]);
  });

  it('should record an upload before its first file and end it with its row', async () => {
    await start();
    const seen: string[][] = [];
    storage.beforePut = async () => {
      seen.push(await uploadsUnderWay());
    };
    const image = await images.upload(owner, await png(700), null, place);
    expect(seen).toHaveLength(5);
    for (const underWay of seen) expect(underWay).toEqual([image.id]);
    expect(await uploadsUnderWay()).toEqual([]);
  });

  it('should sweep the files of an upload abandoned past its lease, and refuse its row', async () => {
    await start();
    let swept = 0;
    storage.beforePut = async (count) => {
      if (count === 3) swept = await images.sweepAbandonedUploads(afterTheLease());
    };
    await expect(images.upload(owner, await png(700), null, place)).rejects.toMatchObject({
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    });
    // The files are stored at once: the sweep finds those written before it listed them.
    expect(swept).toBeGreaterThan(0);
    expect(storage.files.size).toBe(0);
    expect(await rows()).toBe(0);
    expect(await uploadsUnderWay()).toEqual([]);
  });

  it('should keep a failed upload whose files stay until its lease runs out, then sweep them', async () => {
    await start();
    storage.beforePut = (count) => {
      if (count === 2) throw new Error('the disk is full');
    };
    storage.failRemoves = true;
    await expect(images.upload(owner, await png(700), null, place)).rejects.toThrow(
      'the disk is full',
    );
    storage.failRemoves = false;
    const [id] = await uploadsUnderWay();
    expect([...storage.files.keys()].every((key) => key.startsWith(`images/${id}/`))).toBe(true);
    const left = storage.files.size;
    expect(left).toBeGreaterThan(0);
    expect(await images.sweepOrphans()).toBe(0);
    expect(await images.sweepAbandonedUploads()).toBe(0);
    expect(storage.files.size).toBe(left);
    expect(await images.sweepAbandonedUploads(afterTheLease())).toBe(left);
    expect(storage.files.size).toBe(0);
    expect(await uploadsUnderWay()).toEqual([]);
  });

  it('should check the quota again in the transaction that writes the row', async () => {
    const fits = 400_000;
    await start(fits);
    // Another upload of the same owner finishes while this one stores its files.
    storage.beforePut = async (count) => {
      if (count > 0) return;
      await blog.dataSource.query(
        "INSERT INTO images (id, owner_id, alt, width, height, format, bytes, variants, created_at) VALUES (?, ?, NULL, 1, 1, 'png', ?, '[]', datetime('now'))",
        [newId(), owner.id, fits - 10],
      );
    };
    const refused = await images
      .upload(owner, await png(700), null, place)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ImageRefusal);
    expect(refused).toMatchObject({ status: 413, limit: 'quota' });
    expect(storage.files.size).toBe(0);
    expect(await rows()).toBe(1);
    await expect(images.checkQuota(owner.id)).resolves.toBeUndefined();
    storage.beforePut = () => undefined;
    await expect(images.upload(owner, await png(50), null, place)).rejects.toMatchObject({
      status: 413,
    });
  });

  it('should refuse the next upload before reading it once the quota is used up', async () => {
    await start(1);
    await blog.dataSource.query(
      "INSERT INTO images (id, owner_id, alt, width, height, format, bytes, variants, created_at) VALUES (?, ?, NULL, 1, 1, 'png', 1, '[]', datetime('now'))",
      [newId(), owner.id],
    );
    await expect(images.checkQuota(owner.id)).rejects.toMatchObject({
      status: 413,
      limit: 'quota',
    });
  });

  it('should delete the row even when its files cannot be removed, leaving them to the sweep', async () => {
    await start();
    const image = await images.upload(owner, await png(400), null, place);
    storage.failRemoves = true;
    expect(await images.deleteImage(image.id, owner)).toBe(image.id);
    expect(await images.find(image.id)).toBeNull();
    expect(storage.files.size).toBe(3);
    storage.failRemoves = false;
    expect(await images.sweepOrphans()).toBe(3);
    expect(storage.files.size).toBe(0);
  });

  it('should sweep only files whose image has neither a row nor an upload under way', async () => {
    await start();
    const kept = await images.upload(owner, await png(100), null, place);
    const orphan = newId();
    const underWay = newId();
    await blog.dataSource.query('INSERT INTO image_uploads (id, expires_at) VALUES (?, ?)', [
      underWay,
      new Date(Date.now() + images.uploadLeaseMs).toISOString(),
    ]);
    for (const key of [
      `images/${orphan}/original.jpg`,
      `images/${orphan}/original.jpg.ab.tmp`,
      `images/${underWay}/original.jpg`,
    ]) {
      storage.files.set(key, { body: Buffer.from('x'), modifiedAt: new Date() });
    }
    expect(await images.sweepOrphans()).toBe(2);
    expect(await images.sweepAbandonedUploads()).toBe(0);
    expect([...storage.files.keys()].sort()).toEqual(
      [`images/${kept.id}/original.png`, `images/${underWay}/original.jpg`].sort(),
    );
  });

  it('should delete every image of an owner deleted with them, rows then files', async () => {
    await start();
    const other = await blog.signUp();
    await images.upload(owner, await png(30), null, place);
    await images.upload(owner, await png(40), null, place);
    const theirs = await images.upload(other, await png(50), null, place);
    const sql = blog.moduleRef.get(Sql);
    const { deleteUser } = sql.prepare({
      deleteUser: statement<{ id: string }>('DELETE FROM users WHERE id = :id'),
    });
    await images.deleteOwnerWithImages(owner.id, (tx) => tx.run(deleteUser, { id: owner.id }));
    expect(await images.count(owner.id)).toBe(0);
    expect([...storage.files.keys()]).toEqual([`images/${theirs.id}/original.png`]);
  });

  it('should answer an image to its owner only through ownedBy', async () => {
    await start();
    const other = await blog.signUp();
    const image = await images.upload(owner, await png(30), null, place);
    expect((await images.ownedBy(owner.id, image.id))?.id).toBe(image.id);
    expect(await images.ownedBy(other.id, image.id)).toBeNull();
    expect(await images.ownedBy(owner.id, 'not an id')).toBeNull();
    expect(await images.findByIds([image.id, newId(), 'bad'])).toEqual([image, null, null]);
  });

  it('should refuse changes by others, and changes of images that do not exist', async () => {
    await start();
    const other = await blog.signUp();
    const admin = await blog.signUp('admin');
    const image = await images.upload(owner, await png(30), null, place);
    expect(await refusalOf(images.updateAlt(image.id, 'x', other))).toEqual({ code: 'FORBIDDEN' });
    expect(await refusalOf(images.deleteImage(image.id, other))).toEqual({ code: 'FORBIDDEN' });
    expect(await refusalOf(images.updateAlt(newId(), 'x', owner))).toEqual({ code: 'NOT_FOUND' });
    expect(await refusalOf(images.deleteImage(image.id, null))).toEqual({
      code: 'UNAUTHENTICATED',
    });
    expect((await images.updateAlt(image.id, ' Fine ', admin)).alt).toBe('Fine');
    expect(await images.deleteImage(image.id, admin)).toBe(image.id);
  });
});

describe('normaliseAlt', () => {
  it('should trim, read empty as null, and refuse what is not one readable line', () => {
    expect(normaliseAlt('  A cat ')).toBe('A cat');
    expect(normaliseAlt('   ')).toBeNull();
    expect(normaliseAlt(undefined)).toBeNull();
    expect(normaliseAlt('é'.repeat(1000))).toHaveLength(1000);
    expect(() => normaliseAlt('x'.repeat(1001))).toThrow(/at most 1000/);
    expect(() => normaliseAlt('a\nb')).toThrow(/control/);
    expect(() => normaliseAlt('a\u202Eb')).toThrow(/control/);
    expect(() => normaliseAlt('a\uD800b')).toThrow(/control/);
  });
});

describe('uploadLeaseMs', () => {
  it('should give an upload twice the longest put, and at least 15 s', () => {
    expect(uploadLeaseMs({})).toBe(15_000);
    expect(uploadLeaseMs({ putTimeoutMs: 2_000 })).toBe(15_000);
    expect(uploadLeaseMs({ putTimeoutMs: 10_000 })).toBe(25_000);
  });
});
