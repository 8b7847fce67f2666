import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

import sharp from 'sharp';
import request from 'supertest';

import { testDatabase } from './helpers/databases';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';
import { ImagesService, LocalImageStorage } from '../src/blog';
import { processImage } from '../src/blog/images/image-processor';
import { ImageUpload } from '../src/blog/images/image-upload.entity';
import { OrphanSweeper } from '../src/blog/images/orphan-sweeper';

const SITE = 'https://blog.example';
const IMAGE_FIELDS = 'id url width height alt bytes createdAt variants { width height format url }';
const IMAGE = `query ($id: ID!) { image(id: $id) { ${IMAGE_FIELDS} } }`;
const MY_IMAGES = `query ($first: Int, $after: String) {
  myImages(first: $first, after: $after) {
    totalCount
    edges { cursor node { id alt } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const UPDATE_ALT = `mutation ($id: ID!, $alt: String!) { updateImageAlt(id: $id, alt: $alt) { id alt } }`;
const DELETE_IMAGE = `mutation ($id: ID!) { deleteImage(id: $id) }`;

interface UploadedImage {
  id: string;
  url: string;
  width: number;
  height: number;
  format: string;
  alt: string | null;
  bytes: number;
  createdAt: string;
  variants: { width: number; height: number; format: string; url: string }[];
}

/** A JPEG COM segment, inserted after SOI: a comment that must not survive. */
function withComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, body, jpeg.subarray(2)]);
}

/**
 * A 2400 × 1600 photo stored sideways (EXIF orientation 6), with GPS coordinates, a camera,
 * an ICC profile, XMP and a comment: everything a phone might leave in a file.
 */
async function photo(): Promise<Buffer> {
  const pixels = await sharp({
    create: {
      width: 2400,
      height: 1600,
      channels: 3,
      background: 'black',
      noise: { type: 'gaussian', mean: 128, sigma: 12 },
    },
  })
    .jpeg()
    .toBuffer();
  const tagged = await sharp(pixels)
    .withMetadata({ orientation: 6 })
    .withIccProfile('p3')
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12', Copyright: 'Home of the writer' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2400/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 4000/100',
      },
    })
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="Secret Writer"/></rdf:RDF></x:xmpmeta>',
    )
    .jpeg({ quality: 90 })
    .toBuffer();
  return withComment(tagged, 'secret comment 48.85N 2.29E');
}

const solid = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 4, background: { r: 200, g: 30, b: 60, alpha: 0.8 } },
  });

function crc32(buffer: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buffer) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A 74-byte PNG whose header claims 50,000 × 50,000 pixels: 7.5 GB once decoded. */
function pngBomb(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(50_000, 0);
  header.writeUInt32BE(50_000, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1000))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The markers of a JPEG's segments before its image data: APP1 (Exif, XMP), APP2 (ICC), COM. */
function jpegMarkers(jpeg: Buffer): number[] {
  expect(jpeg.readUInt16BE(0)).toBe(0xffd8);
  const markers: number[] = [];
  for (let at = 2; at < jpeg.length;) {
    expect(jpeg[at]).toBe(0xff);
    const marker = jpeg[at + 1]!;
    markers.push(marker);
    if (marker === 0xda) break;
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  return markers;
}

/** The chunk types of a PNG. */
function pngChunks(png: Buffer): string[] {
  const types: string[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    types.push(png.toString('latin1', at + 4, at + 8));
    at += 12 + length;
  }
  return types;
}

/** The chunk types of a WebP (RIFF) file. */
function webpChunks(webp: Buffer): string[] {
  expect(webp.toString('latin1', 0, 4)).toBe('RIFF');
  const types: string[] = [];
  for (let at = 12; at + 8 <= webp.length;) {
    const length = webp.readUInt32LE(at + 4);
    types.push(webp.toString('latin1', at, at + 4));
    at += 8 + length + (length % 2);
  }
  return types;
}

describe(`Images (e2e, ${testDatabase()})`, () => {
  let t: TestApp;
  let photoJpeg: Buffer;
  /** What the photo takes stored: the quota fits it once, not twice. */
  let photoBytes: number;

  beforeAll(async () => {
    photoJpeg = await photo();
    const processed = await processImage(photoJpeg, 40_000_000);
    photoBytes = [processed.original, ...processed.variants].reduce(
      (sum, file) => sum + file.body.length,
      0,
    );
    t = await TestApp.start({
      env: {
        SITE_URL: SITE,
        IMAGE_QUOTA_BYTES: String(Math.floor(photoBytes * 1.5)),
        IMAGE_MAX_BYTES: String(10 * 1024 * 1024),
        RATE_LIMIT_WRITES_PER_MINUTE: '1000',
        NEW_ACCOUNT_HOURS: '0',
      },
    });
  });
  afterAll(() => t?.close());

  /** The folder of the stored images: `DATA_DIR/images`. */
  const imagesDir = (): string => {
    const storage = t.app.get(ImagesService).storage as LocalImageStorage;
    return join(storage.root, 'images');
  };
  const storedIds = (): string[] => (existsSync(imagesDir()) ? readdirSync(imagesDir()) : []);
  const rows = async (): Promise<number> =>
    Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM images'))[0].n);

  const upload = (
    user: TestUser | null,
    file: Buffer,
    options: { filename?: string; contentType?: string; alt?: string } = {},
  ) => {
    const req = t.http.post('/images');
    if (user) req.set('authorization', user.token);
    if (options.alt !== undefined) req.field('alt', options.alt);
    return req.attach('file', file, {
      filename: options.filename ?? 'upload.bin',
      contentType: options.contentType ?? 'application/octet-stream',
    });
  };
  const uploaded = async (user: TestUser, file: Buffer, alt?: string): Promise<UploadedImage> => {
    const response = await upload(user, file, { alt });
    expect(response.status).toBe(201);
    return response.body as UploadedImage;
  };
  const get = (url: string) => t.http.get(new URL(url).pathname);
  const getBytes = async (url: string, headers: Record<string, string> = {}) => {
    const req = get(url)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    return req;
  };
  const codeOf = (response: GraphQLResponse) => response.errors?.[0]?.extensions?.code;

  describe('a photo with GPS EXIF', () => {
    let user: TestUser;
    let image: UploadedImage;

    beforeAll(async () => {
      user = await t.signUp();
      image = await uploaded(user, photoJpeg, '  A street at dusk  ');
    });

    it('should answer 201 with the image upright, its alt trimmed and its URLs absolute', () => {
      expect(image).toMatchObject({
        width: 1600,
        height: 2400,
        format: 'jpeg',
        alt: 'A street at dusk',
      });
      expect(image.url).toBe(`${SITE}/images/${image.id}/original.jpg`);
      expect(new Date(image.createdAt).getTime()).not.toBeNaN();
      expect(image.bytes).toBe(photoBytes);
    });

    it('should make variants 320, 640 and 1280 wide in WebP and JPEG, none as wide as the image', () => {
      const made = image.variants.map(({ width, format }) => `${width}.${format}`);
      expect(made).toEqual([
        '320.webp',
        '320.jpeg',
        '640.webp',
        '640.jpeg',
        '1280.webp',
        '1280.jpeg',
      ]);
      for (const variant of image.variants) {
        expect(variant.height).toBe(Math.round((2400 * variant.width) / 1600));
        expect(variant.url).toBe(
          `${SITE}/images/${image.id}/${variant.width}.${variant.format === 'jpeg' ? 'jpg' : 'webp'}`,
        );
      }
    });

    it('should store files whose decoded size and format are what the image says', async () => {
      for (const variant of image.variants) {
        const { body } = await getBytes(variant.url);
        const metadata = await sharp(body as Buffer).metadata();
        expect([metadata.format, metadata.width, metadata.height]).toEqual([
          variant.format,
          variant.width,
          variant.height,
        ]);
      }
      const { body } = await getBytes(image.url);
      const metadata = await sharp(body as Buffer).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', 1600, 2400]);
    });

    it('should keep no EXIF, GPS, XMP, ICC profile or comment in any file', async () => {
      const urls = [image.url, ...image.variants.map((variant) => variant.url)];
      let total = 0;
      for (const url of urls) {
        const { body } = await getBytes(url);
        const file = body as Buffer;
        total += file.length;
        expect(file.includes(Buffer.from('PhoneMaker'))).toBe(false);
        expect(file.includes(Buffer.from('Secret Writer'))).toBe(false);
        expect(file.includes(Buffer.from('secret comment'))).toBe(false);
        const metadata = await sharp(file).metadata();
        expect([metadata.exif, metadata.icc, metadata.xmp, metadata.iptc]).toEqual([
          undefined,
          undefined,
          undefined,
          undefined,
        ]);
        expect(metadata.orientation).toBeUndefined();
        if (url.endsWith('.jpg')) {
          // APP0 (JFIF) may stay; no APP1 (Exif, XMP), APP2 (ICC), APP13 (IPTC) or COM segment.
          expect(jpegMarkers(file).filter((marker) => marker >= 0xe1 && marker <= 0xfe)).toEqual(
            [],
          );
        } else {
          expect(
            webpChunks(file).filter((type) => ['EXIF', 'XMP ', 'ICCP'].includes(type)),
          ).toEqual([]);
        }
      }
      expect(total).toBe(image.bytes);
    });

    it('should serve a file immutable, typed, not sniffed and running nothing, with a strong ETag', async () => {
      const response = await getBytes(image.url);
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({
        'content-type': 'image/jpeg',
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'accept-ranges': 'bytes',
      });
      expect(response.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      expect(Number(response.headers['content-length'])).toBe((response.body as Buffer).length);
      const webp = await getBytes(image.variants[0]!.url);
      expect(webp.headers['content-type']).toBe('image/webp');
      const head = await t.http.head(new URL(image.url).pathname);
      expect(head.status).toBe(200);
      expect(head.headers['content-length']).toBe(response.headers['content-length']);
      expect(head.headers.etag).toBe(response.headers.etag);
    });

    it('should answer 304 to a conditional GET whose ETag matches, and 200 to one that does not', async () => {
      const { headers } = await getBytes(image.url);
      const again = await getBytes(image.url, { 'if-none-match': headers.etag });
      expect(again.status).toBe(304);
      expect((again.body as Buffer).length).toBe(0);
      expect(again.headers.etag).toBe(headers.etag);
      const other = await getBytes(image.url, { 'if-none-match': '"other"' });
      expect(other.status).toBe(200);
    });

    it('should answer a byte range with 206, and one past the end with 416', async () => {
      const whole = (await getBytes(image.url)).body as Buffer;
      const range = await getBytes(image.url, { range: 'bytes=100-199' });
      expect(range.status).toBe(206);
      expect(range.headers['content-range']).toBe(`bytes 100-199/${whole.length}`);
      expect(range.body).toEqual(whole.subarray(100, 200));
      const suffix = await getBytes(image.url, { range: 'bytes=-10' });
      expect(suffix.status).toBe(206);
      expect(suffix.body).toEqual(whole.subarray(whole.length - 10));
      const past = await getBytes(image.url, { range: `bytes=${whole.length}-` });
      expect(past.status).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${whole.length}`);
      const stale = await getBytes(image.url, { range: 'bytes=0-9', 'if-range': '"stale"' });
      expect(stale.status).toBe(200);
    });

    it('should answer 404 to names and ids that are not an image file, path tricks included', async () => {
      for (const path of [
        `/images/${image.id}/original.svg`,
        `/images/${image.id}/original.jpg.tmp`,
        `/images/${image.id}/..%2F..%2Fblog.sqlite`,
        `/images/..%2F..%2F/original.jpg`,
        `/images/${image.id.toUpperCase()}/original.jpg`,
        `/images/${image.id}/999.jpg`,
        `/images/0190a000-0000-7000-8000-000000000000/original.jpg`,
      ]) {
        const response = await t.http.get(path);
        expect([path, response.status]).toEqual([path, 404]);
      }
    });

    it('should answer the image to anyone through image(id), with the same URLs', async () => {
      const { image: read } = await t.data<{ image: UploadedImage }>(IMAGE, { id: image.id });
      expect(read).toEqual({ ...image, format: undefined, createdAt: read.createdAt });
      expect(new Date(read.createdAt).toISOString()).toBe(image.createdAt);
      expect(
        (await t.data(IMAGE, { id: '0190a000-0000-7000-8000-000000000000' })).image,
      ).toBeNull();
    });
  });

  describe('types decided by decoding', () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await t.signUp();
    });

    it('should take a PNG named .jpg and sent as image/jpeg as the PNG it is', async () => {
      const png = await solid(500, 300).png().toBuffer();
      const response = await upload(user, png, {
        filename: 'holiday.jpg',
        contentType: 'image/jpeg',
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ format: 'png', width: 500, height: 300 });
      expect(response.body.url).toMatch(/\/original\.png$/);
      expect(
        response.body.variants.map(
          (v: { width: number; format: string }) => `${v.width}.${v.format}`,
        ),
      ).toEqual(['320.webp', '320.png']);
      const served = await getBytes(response.body.url);
      expect(served.headers['content-type']).toBe('image/png');
      expect(
        pngChunks(served.body as Buffer).filter((type) =>
          /^(eXIf|iCCP|tEXt|iTXt|zTXt)$/.test(type),
        ),
      ).toEqual([]);
    });

    it('should keep the first frame of an animated GIF, as a GIF', async () => {
      const frames = ['red', 'green', 'blue'].map((background) =>
        sharp({ create: { width: 40, height: 40, channels: 3, background } })
          .png()
          .toBuffer(),
      );
      const animated = await sharp(await Promise.all(frames), { join: { animated: true } })
        .gif()
        .toBuffer();
      expect((await sharp(animated).metadata()).pages).toBe(3);
      const response = await upload(user, animated, {
        filename: 'a.gif',
        contentType: 'image/gif',
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ format: 'gif', width: 40, height: 40, variants: [] });
      const served = await getBytes(response.body.url);
      expect((await sharp(served.body as Buffer).metadata()).pages).toBe(1);
    });

    it('should take a GIF with a script after it as a GIF, and store none of the script', async () => {
      const gif = await solid(64, 64).gif().toBuffer();
      const polyglot = Buffer.concat([gif, Buffer.from('\n/*/=1;alert(document.cookie)//*/')]);
      const response = await upload(user, polyglot, {
        filename: 'x.js',
        contentType: 'application/javascript',
      });
      expect(response.status).toBe(201);
      expect(response.body.format).toBe('gif');
      const served = await getBytes(response.body.url);
      expect((served.body as Buffer).includes(Buffer.from('alert'))).toBe(false);
      expect(served.headers['content-type']).toBe('image/gif');
      expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    });

    it('should take a JPEG with a ZIP archive appended, and store none of the archive', async () => {
      const jpeg = await solid(100, 80).jpeg().toBuffer();
      const zip = Buffer.concat([
        Buffer.from('PK\x03\x04', 'latin1'),
        Buffer.from('evil.html<script>'),
      ]);
      const response = await upload(user, Buffer.concat([jpeg, zip]));
      expect(response.status).toBe(201);
      const served = await getBytes(response.body.url);
      expect((served.body as Buffer).includes(Buffer.from('PK\x03\x04', 'latin1'))).toBe(false);
    });

    it.each([
      [
        'an SVG with a script',
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(1)</script><rect width="100" height="100"/></svg>',
        ),
        'image/svg+xml',
      ],
      ['HTML named .png', Buffer.from('<html><script>alert(1)</script></html>'), 'image/png'],
      ['an empty file', Buffer.alloc(0), 'image/png'],
      [
        'random bytes',
        Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
        'image/jpeg',
      ],
    ])('should refuse %s with 415, storing nothing', async (_what, file, contentType) => {
      const before = { rows: await rows(), ids: storedIds().length };
      const response = await upload(user, file, { filename: 'x.png', contentType });
      expect(response.status).toBe(415);
      expect(response.body).toEqual({
        error: {
          code: 'BAD_USER_INPUT',
          message: expect.stringMatching(/JPEG, PNG, WebP, AVIF or GIF/),
        },
      });
      expect({ rows: await rows(), ids: storedIds().length }).toEqual(before);
    });

    it('should refuse a TIFF named .jpg by what it decodes as', async () => {
      const tiff = await solid(50, 50).tiff().toBuffer();
      expect(
        (await upload(user, tiff, { filename: 'a.jpg', contentType: 'image/jpeg' })).status,
      ).toBe(415);
    });

    it('should take an AVIF and a WebP', async () => {
      const avif = await solid(400, 200).avif().toBuffer();
      const a = await upload(user, avif);
      expect(a.status).toBe(201);
      expect(a.body.format).toBe('avif');
      expect(a.body.variants.map((v: { format: string }) => v.format)).toEqual(['webp', 'avif']);
      expect((await getBytes(a.body.url)).headers['content-type']).toBe('image/avif');
      const webp = await solid(700, 100).webp().toBuffer();
      const w = await upload(user, webp);
      expect(w.status).toBe(201);
      expect(
        w.body.variants.map((v: { width: number; format: string }) => `${v.width}.${v.format}`),
      ).toEqual(['320.webp', '640.webp']);
    });
  });

  describe('limits', () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await t.signUp();
    });

    it('should refuse a 50,000 × 50,000 decompression bomb with 413 from its header', async () => {
      const response = await upload(user, pngBomb(), {
        filename: 'bomb.png',
        contentType: 'image/png',
      });
      expect(response.status).toBe(413);
      expect(response.body.error).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'maxPixels' });
      expect(response.body.error.message).toMatch(/50000 × 50000/);
    });

    it('should refuse a truncated JPEG with 415', async () => {
      const whole = await sharp({
        create: {
          width: 800,
          height: 600,
          channels: 3,
          background: 'black',
          noise: { type: 'gaussian', mean: 100, sigma: 30 },
        },
      })
        .jpeg()
        .toBuffer();
      const response = await upload(user, whole.subarray(0, Math.floor(whole.length / 2)));
      expect(response.status).toBe(415);
      expect(response.body.error.message).toMatch(/whole, readable/);
    });

    it('should refuse 11 MB with 413 before storing anything, with or without a length up front', async () => {
      const before = { rows: await rows(), ids: storedIds().length };
      const big = Buffer.alloc(11 * 1024 * 1024, 7);
      const response = await upload(user, big);
      expect(response.status).toBe(413);
      expect(response.body.error).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'maxBytes' });
      // Just over the limit: the declared length passes the first check, the stream does not.
      const over = await upload(user, Buffer.alloc(10 * 1024 * 1024 + 10, 7));
      expect(over.status).toBe(413);
      expect(over.body.error.limit).toBe('maxBytes');
      expect({ rows: await rows(), ids: storedIds().length }).toEqual(before);
    });

    it('should refuse a request without a token (401), with a bad one (401), or of a banned user (403)', async () => {
      const png = await solid(10, 10).png().toBuffer();
      const anonymous = await upload(null, png);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
      const forged = await t.http
        .post('/images')
        .set('authorization', 'Bearer not.a.token')
        .attach('file', png, 'a.png');
      expect(forged.status).toBe(401);
      const banned = await t.signUp();
      await t.dataSource.query(
        `UPDATE users SET banned_at = ${t.dataSource.options.type === 'postgres' ? 'now()' : "datetime('now')"}, ban_reason = 'spam' WHERE id = '${banned.user.id}'`,
      );
      const refused = await upload(banned, png);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', ban: { reason: 'spam' } });
    });

    it('should refuse a body that is not multipart (415), without a file (400), or with two (400)', async () => {
      const json = await t.http
        .post('/images')
        .set('authorization', user.token)
        .send({ file: 'x' });
      expect(json.status).toBe(415);
      expect(json.body.error.code).toBe('BAD_REQUEST');
      const noFile = await t.http
        .post('/images')
        .set('authorization', user.token)
        .field('alt', 'nothing');
      expect(noFile.status).toBe(400);
      const png = await solid(10, 10).png().toBuffer();
      const two = await t.http
        .post('/images')
        .set('authorization', user.token)
        .attach('file', png, 'a.png')
        .attach('file', png, 'b.png');
      expect(two.status).toBe(400);
      const wrongField = await t.http
        .post('/images')
        .set('authorization', user.token)
        .attach('image', png, 'a.png');
      expect(wrongField.status).toBe(400);
    });

    it('should refuse an alt text of more than 1000 characters with 400', async () => {
      const png = await solid(10, 10).png().toBuffer();
      const response = await upload(user, png, { alt: 'x'.repeat(1001) });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('BAD_USER_INPUT');
    });

    it('should let only one of a burst of concurrent uploads pass a quota that fits one', async () => {
      const burster = await t.signUp();
      const responses = await Promise.all(
        Array.from({ length: 4 }, () => upload(burster, photoJpeg)),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 413, 413, 413]);
      const refused = responses.find((response) => response.status === 413)!;
      expect(refused.body.error).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'quota' });
      const [{ bytes }] = await t.dataSource.query(
        `SELECT COALESCE(SUM(bytes), 0) AS bytes FROM images WHERE owner_id = '${burster.user.id}'`,
      );
      expect(Number(bytes)).toBe(photoBytes);
      const kept = responses.find((response) => response.status === 201)!.body as UploadedImage;
      // Nothing of the refused uploads is left: every stored folder is an image's with a row.
      const rowIds = (await t.dataSource.query('SELECT id FROM images')).map(
        (row: { id: string }) => row.id,
      );
      expect(storedIds().sort()).toEqual(rowIds.sort());
      expect(readdirSync(join(imagesDir(), kept.id))).toHaveLength(1 + kept.variants.length);
      // What is left of the quota still takes a small image.
      expect((await upload(burster, await solid(10, 10).png().toBuffer())).status).toBe(201);
    });
  });

  describe('myImages, updateImageAlt and deleteImage', () => {
    let owner: TestUser;
    let other: TestUser;
    let admin: TestUser;
    const ids: string[] = [];

    beforeAll(async () => {
      owner = await t.signUp();
      other = await t.signUp();
      admin = await t.signUp();
      await t.makeAdmin(admin.user.id);
      for (const size of [11, 12, 13]) {
        ids.push((await uploaded(owner, await solid(size, size).png().toBuffer())).id);
      }
    });

    it('should page the viewer’s images newest first, with their count', async () => {
      const first = (await t.data(MY_IMAGES, { first: 2 }, owner.token)).myImages;
      expect(first.totalCount).toBe(3);
      expect(first.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([
        ids[2],
        ids[1],
      ]);
      expect(first.pageInfo.hasNextPage).toBe(true);
      const next = (
        await t.data(MY_IMAGES, { first: 2, after: first.pageInfo.endCursor }, owner.token)
      ).myImages;
      expect(next.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([ids[0]]);
      expect(next.pageInfo.hasNextPage).toBe(false);
      expect(codeOf(await t.gql(MY_IMAGES, {}))).toBe('UNAUTHENTICATED');
      expect(codeOf(await t.gql(MY_IMAGES, { after: 'bm90LWEtY3Vyc29y' }, owner.token))).toBe(
        'BAD_USER_INPUT',
      );
    });

    it('should let the owner and an admin change the alt text, and nobody else', async () => {
      const changed = await t.data(UPDATE_ALT, { id: ids[0], alt: ' A red square ' }, owner.token);
      expect(changed.updateImageAlt).toEqual({ id: ids[0], alt: 'A red square' });
      expect(codeOf(await t.gql(UPDATE_ALT, { id: ids[0], alt: 'mine' }, other.token))).toBe(
        'FORBIDDEN',
      );
      expect(
        codeOf(await t.gql(UPDATE_ALT, { id: ids[0], alt: 'x'.repeat(1001) }, owner.token)),
      ).toBe('BAD_USER_INPUT');
      const cleared = await t.data(UPDATE_ALT, { id: ids[0], alt: '' }, admin.token);
      expect(cleared.updateImageAlt.alt).toBeNull();
      expect(codeOf(await t.gql(UPDATE_ALT, { id: ids[0], alt: 'x' }))).toBe('UNAUTHENTICATED');
    });

    it('should refuse to delete an image in use, listing where, until it is no longer used', async () => {
      const id = ids[1]!;
      const post = (
        await t.data(
          `mutation ($input: CreatePostInput!) { createPost(input: $input) { id } }`,
          { input: { title: 'Cover story', content: 'Words', publish: true } },
          owner.token,
        )
      ).createPost.id as string;
      await t.dataSource.query(`UPDATE posts SET cover_image_id = '${id}' WHERE id = '${post}'`);
      await t.dataSource.query(
        `UPDATE users SET avatar_image_id = '${id}' WHERE id = '${owner.user.id}'`,
      );
      const refused = await t.gql(DELETE_IMAGE, { id }, owner.token);
      expect(refused.errors?.[0]?.extensions).toEqual({
        code: 'CONFLICT',
        usedBy: {
          posts: [{ id: post, title: 'Cover story' }],
          avatars: [{ id: owner.user.id, handle: owner.user.handle }],
        },
      });
      expect(refused.errors?.[0]?.message).toMatch(/Cover story/);
      expect(storedIds()).toContain(id);
      await t.dataSource.query(`UPDATE posts SET cover_image_id = NULL WHERE id = '${post}'`);
      await t.dataSource.query(
        `UPDATE users SET avatar_image_id = NULL WHERE id = '${owner.user.id}'`,
      );
      expect((await t.data(DELETE_IMAGE, { id }, owner.token)).deleteImage).toBe(id);
      expect(storedIds()).not.toContain(id);
    });

    it('should let the owner and an admin delete an image, its row then its files, and nobody else', async () => {
      const id = ids[2]!;
      expect(codeOf(await t.gql(DELETE_IMAGE, { id }, other.token))).toBe('FORBIDDEN');
      expect(codeOf(await t.gql(DELETE_IMAGE, { id }))).toBe('UNAUTHENTICATED');
      expect(storedIds()).toContain(id);
      const { image: before } = await t.data<{ image: UploadedImage }>(IMAGE, { id });
      expect((await t.data(DELETE_IMAGE, { id }, admin.token)).deleteImage).toBe(id);
      expect(storedIds()).not.toContain(id);
      expect((await t.data(IMAGE, { id })).image).toBeNull();
      expect((await get(before.url)).status).toBe(404);
      expect(codeOf(await t.gql(DELETE_IMAGE, { id }, owner.token))).toBe('NOT_FOUND');
      expect(codeOf(await t.gql(DELETE_IMAGE, { id: 'nope' }, owner.token))).toBe('NOT_FOUND');
    });
  });

  describe('atomic writes and the orphan sweep', () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await t.signUp();
    });

    it('should leave neither a row nor a file when writing the row fails part-way', async () => {
      const postgres = t.dataSource.options.type === 'postgres';
      if (postgres) {
        await t.dataSource.query(
          `CREATE FUNCTION refuse_insert() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`,
        );
        await t.dataSource.query(
          'CREATE TRIGGER refuse_insert BEFORE INSERT ON images FOR EACH ROW EXECUTE FUNCTION refuse_insert()',
        );
      } else {
        await t.dataSource.query(
          "CREATE TRIGGER refuse_insert BEFORE INSERT ON images BEGIN SELECT RAISE(ABORT, 'refused'); END",
        );
      }
      const before = { rows: await rows(), ids: storedIds() };
      try {
        const response = await upload(user, await solid(700, 400).png().toBuffer());
        expect(response.status).toBe(500);
        expect(response.body.error.code).toBe('INTERNAL_SERVER_ERROR');
      } finally {
        await t.dataSource.query(
          postgres ? 'DROP TRIGGER refuse_insert ON images' : 'DROP TRIGGER refuse_insert',
        );
        if (postgres) await t.dataSource.query('DROP FUNCTION refuse_insert()');
      }
      expect({ rows: await rows(), ids: storedIds() }).toEqual(before);
      expect((await upload(user, await solid(20, 20).png().toBuffer())).status).toBe(201);
    });

    it('should sweep the files of a killed upload once its lease runs out, and of no upload at once', async () => {
      const kept = await uploaded(user, await solid(30, 30).png().toBuffer());
      const killed = '0190a000-0000-7000-8000-0000000000aa';
      const orphan = '0190a000-0000-7000-8000-0000000000bb';
      const underWay = '0190a000-0000-7000-8000-0000000000cc';
      const uploads = t.dataSource.getRepository(ImageUpload);
      await uploads.insert([
        { id: killed, expiresAt: new Date(Date.now() - 1000) },
        { id: underWay, expiresAt: new Date(Date.now() + 60_000) },
      ]);
      for (const id of [killed, orphan, underWay]) {
        mkdirSync(join(imagesDir(), id), { recursive: true });
        writeFileSync(join(imagesDir(), id, 'original.jpg'), 'partial');
        writeFileSync(join(imagesDir(), id, 'original.jpg.1a2b3c.tmp'), 'half written');
      }

      await t.app.get(OrphanSweeper).sweepNow();

      expect(storedIds()).not.toContain(killed);
      expect(storedIds()).not.toContain(orphan);
      expect(readdirSync(join(imagesDir(), underWay)).sort()).toEqual([
        'original.jpg',
        'original.jpg.1a2b3c.tmp',
      ]);
      expect((await uploads.find()).map((upload) => upload.id)).toEqual([underWay]);
      expect((await getBytes(kept.url)).status).toBe(200);

      await uploads.delete(underWay);
      await t.app.get(OrphanSweeper).sweepNow();
      expect(storedIds()).not.toContain(underWay);
    });
  });

  it('should serve nothing under /images but image files (no upload answers a GET)', async () => {
    expect((await request(t.app.getHttpServer()).get('/images')).status).toBe(404);
  });
});
