import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import sharp from 'sharp';

import { S3RVER_CREDENTIALS, S3TestServer } from './helpers/s3-server';
import { TestApp, TestUser } from './helpers/test-app';
import { newId } from '../src/blog/common/uuid';
import { ImageUpload } from '../src/blog/images/image-upload.entity';
import { OrphanSweeper } from '../src/blog/images/orphan-sweeper';

/** Where a CDN in front of the bucket would serve it. */
const CDN = 'https://cdn.example.com/blog';

interface UploadedImage {
  id: string;
  url: string;
  width: number;
  height: number;
  variants: { width: number; format: string; url: string }[];
}

/** The EXIF tag of the GPS directory (0x8825), in either byte order. */
const hasGpsDirectory = (exif: Buffer | undefined): boolean =>
  !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));

/** A 1400 × 1000 photo as a phone takes it: EXIF with the camera and where it was taken. */
function photoWithGps(): Promise<Buffer> {
  return sharp({
    create: { width: 1400, height: 1000, channels: 3, background: { r: 180, g: 120, b: 60 } },
  })
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Pocket 9', Software: 'Camera 1.0' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2964/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 4012/100',
      },
    })
    .toBuffer();
}

describe('Images on S3 (STORAGE=s3)', () => {
  let s3: S3TestServer;
  let app: TestApp;
  let dataDir: string;
  let owner: TestUser;
  let photo: Buffer;

  beforeAll(async () => {
    s3 = await S3TestServer.start();
    // The SDK reads its credentials from the environment at the first request, after TestApp has
    // put its own environment back: they stay set for this file (Jest gives each its own).
    process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
    dataDir = mkdtempSync(join(tmpdir(), 'blog-images-s3-'));
    app = await TestApp.start({
      dataDir,
      env: { ...s3.env(), IMAGE_PUBLIC_BASE_URL: `${CDN}/` },
    });
    owner = await app.signUp();
    photo = await photoWithGps();
  });

  afterAll(async () => {
    await app?.close();
    await s3?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function upload(token = owner.token, file = photo): Promise<UploadedImage> {
    const response = await app.http
      .post('/images')
      .set('authorization', token)
      .field('alt', 'A street at dusk')
      .attach('file', file, { filename: 'IMG_0001.jpg', contentType: 'image/jpeg' });
    expect(response.status).toBe(201);
    return response.body as UploadedImage;
  }

  /** The key of a URL the service gave: what follows the public base. */
  function keyOf(url: string): string {
    expect(url.startsWith(`${CDN}/`)).toBe(true);
    return url.slice(CDN.length + 1);
  }

  it('should store the re-encoded image and its variants in the bucket, without EXIF', async () => {
    expect(hasGpsDirectory((await sharp(photo).metadata()).exif)).toBe(true);

    const image = await upload();

    expect(image.url).toBe(`${CDN}/images/${image.id}/original.jpg`);
    expect(image.variants.map((variant) => `${variant.width}.${variant.format}`).sort()).toEqual(
      ['1280.jpeg', '1280.webp', '320.jpeg', '320.webp', '640.jpeg', '640.webp'].sort(),
    );
    const keys = [image.url, ...image.variants.map((variant) => variant.url)].map(keyOf);
    expect(await s3.keys(`images/${image.id}/`)).toEqual([...keys].sort());

    for (const key of keys) {
      const stored = await s3.get(key);
      const webp = key.endsWith('.webp');
      expect(stored.contentType).toBe(webp ? 'image/webp' : 'image/jpeg');
      expect(stored.cacheControl).toBe('public, max-age=31536000, immutable');
      const metadata = await sharp(stored.body).metadata();
      expect(metadata.format).toBe(webp ? 'webp' : 'jpeg');
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(stored.body.includes(Buffer.from('PhoneMaker'))).toBe(false);
      // The bytes decode whole: a body stored with chunk framing or cut short would not.
      const { info } = await sharp(stored.body).raw().toBuffer({ resolveWithObject: true });
      const variant = image.variants.find((one) => one.url === `${CDN}/${key}`);
      expect(info.width).toBe(variant ? variant.width : 1400);
    }

    const { image: read } = await app.data<{ image: UploadedImage }>(
      'query ($id: ID!) { image(id: $id) { id url width height variants { width format url } } }',
      { id: image.id },
    );
    expect(read.url).toBe(image.url);
    expect(read.variants.map((variant) => variant.url).sort()).toEqual(
      image.variants.map((variant) => variant.url).sort(),
    );
  });

  it('should keep nothing on the instance and serve no files itself', async () => {
    const image = await upload();

    expect(existsSync(join(dataDir, 'images'))).toBe(false);
    expect(existsSync(join(process.cwd(), 'data', 'images', image.id))).toBe(false);
    expect((await app.http.get(`/images/${image.id}/original.jpg`)).status).toBe(404);
  });

  it('should remove the objects of a deleted image', async () => {
    const image = await upload();
    expect((await s3.keys(`images/${image.id}/`)).length).toBe(7);

    const { deleteImage } = await app.data<{ deleteImage: string }>(
      'mutation ($id: ID!) { deleteImage(id: $id) }',
      { id: image.id },
      owner.token,
    );

    expect(deleteImage).toBe(image.id);
    expect(await s3.keys(`images/${image.id}/`)).toEqual([]);
  });

  it('should sweep the objects of a killed upload and of no upload, and only those', async () => {
    const kept = await upload();
    const killed = newId();
    const orphan = newId();
    const underWay = newId();
    const uploads = app.dataSource.getRepository(ImageUpload);
    await uploads.insert([
      { id: killed, expiresAt: new Date(Date.now() - 1000) },
      { id: underWay, expiresAt: new Date(Date.now() + 60_000) },
    ]);
    for (const id of [killed, orphan, underWay]) {
      await s3.put(`images/${id}/original.jpg`, photo, 'image/jpeg');
      await s3.put(`images/${id}/320.webp`, Buffer.from('part of a killed upload'));
    }

    await app.app.get(OrphanSweeper).sweepNow();

    expect(await s3.keys(`images/${killed}/`)).toEqual([]);
    expect(await s3.keys(`images/${orphan}/`)).toEqual([]);
    expect((await s3.keys(`images/${underWay}/`)).sort()).toEqual([
      `images/${underWay}/320.webp`,
      `images/${underWay}/original.jpg`,
    ]);
    expect((await uploads.find()).map((upload) => upload.id)).toEqual([underWay]);
    expect((await s3.keys(`images/${kept.id}/`)).length).toBe(7);
  });

  it('should answer 503 and keep no image while the bucket cannot be reached', async () => {
    const before = await app.data<{ myImages: { edges: unknown[] } }>(
      '{ myImages(first: 50) { edges { node { id } } } }',
      {},
      owner.token,
    );
    await s3.stop();

    const response = await app.http
      .post('/images')
      .set('authorization', owner.token)
      .attach('file', photo, { filename: 'IMG_0002.jpg', contentType: 'image/jpeg' });

    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(JSON.stringify(response.body)).not.toMatch(/127\.0\.0\.1|blog-images|ECONNREFUSED/);
    const after = await app.data<{ myImages: { edges: unknown[] } }>(
      '{ myImages(first: 50) { edges { node { id } } } }',
      {},
      owner.token,
    );
    expect(after.myImages.edges.length).toBe(before.myImages.edges.length);
  });
});
