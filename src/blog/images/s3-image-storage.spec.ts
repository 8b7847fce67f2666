import { randomBytes } from 'node:crypto';
import { createServer, Server, Socket } from 'node:net';

import { Logger } from '@nestjs/common';
import { GraphQLError } from 'graphql';

import { StoredFile } from './image-storage';
import { IMMUTABLE_CACHE_CONTROL, S3ImageStorage } from './s3-image-storage';
import { freePort } from '../../../test/helpers/ports';
import { S3RVER_CREDENTIALS, S3TestServer } from '../../../test/helpers/s3-server';

async function all(files: AsyncIterable<StoredFile>): Promise<StoredFile[]> {
  const list: StoredFile[] = [];
  for await (const file of files) list.push(file);
  return list;
}

/** What a refused call shows a client: its code and message. */
async function refusal(work: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GraphQLError);
  return {
    code: (error as GraphQLError).extensions.code,
    message: (error as GraphQLError).message,
  };
}

describe('S3ImageStorage', () => {
  let s3: S3TestServer;
  let storage: S3ImageStorage;
  let warned: jest.SpyInstance;

  beforeEach(() => {
    warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warned.mockRestore());

  beforeAll(async () => {
    // The SDK's default chain reads them; Jest gives each spec file its own process.env.
    process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
    s3 = await S3TestServer.start();
    storage = new S3ImageStorage({ bucket: s3.bucket, endpoint: s3.endpoint });
  });

  afterAll(async () => {
    storage.destroy();
    await s3.stop();
  });

  it('should store the bytes as given, with their type and an immutable Cache-Control', async () => {
    const body = randomBytes(3 * 1024 * 1024);
    await storage.put('images/a/original.jpg', body, 'image/jpeg');

    const stored = await s3.get('images/a/original.jpg');
    expect(stored.body.equals(body)).toBe(true);
    expect(stored.contentType).toBe('image/jpeg');
    expect(stored.cacheControl).toBe(IMMUTABLE_CACHE_CONTROL);
  });

  it('should give path-style URLs on the endpoint that serve the file', async () => {
    const body = randomBytes(1000);
    await storage.put('images/b/320.webp', body, 'image/webp');

    const url = storage.publicUrl('images/b/320.webp');
    expect(url).toBe(`${s3.endpoint}/${s3.bucket}/images/b/320.webp`);
    const response = await fetch(url);
    expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true);
  });

  it('should list every file under a prefix, page after page, with its size and date', async () => {
    const keys = Array.from(
      { length: 1005 },
      (_, i) => `images/many/${String(i).padStart(4, '0')}`,
    );
    for (let start = 0; start < keys.length; start += 100) {
      await Promise.all(keys.slice(start, start + 100).map((key) => s3.put(key, Buffer.from(key))));
    }
    await s3.put('elsewhere/file', Buffer.from('not an image'));

    const listed = await all(storage.list('images/many/'));
    expect(listed.map((file) => file.key).sort()).toEqual(keys);
    expect(listed.every((file) => file.bytes === 16)).toBe(true);
    expect(listed.every((file) => Date.now() - file.modifiedAt.getTime() < 3_600_000)).toBe(true);

    // 1,005 keys: one DeleteObjects of 1,000, then one of 5.
    await storage.remove(keys);
    expect(await s3.keys('images/many/')).toEqual([]);
    expect(await s3.exists('elsewhere/file')).toBe(true);
    // A thousand objects written and read on a busy machine: a bound, not a timing.
  }, 60_000);

  it('should remove only the keys named, and take keys already gone in its stride', async () => {
    await storage.put('images/c/original.png', Buffer.from('c'), 'image/png');
    await storage.put('images/d/original.png', Buffer.from('d'), 'image/png');

    await storage.remove(['images/c/original.png', 'images/c/gone.webp']);
    await storage.remove([]);

    expect(await s3.exists('images/c/original.png')).toBe(false);
    expect(await s3.exists('images/d/original.png')).toBe(true);
  });

  it('should fall back to deleting one by one on a server without DeleteObjects', async () => {
    const bare = await S3TestServer.start({ withoutDeleteObjects: true });
    const fallback = new S3ImageStorage({ bucket: bare.bucket, endpoint: bare.endpoint });
    try {
      const keys = Array.from({ length: 20 }, (_, i) => `images/e/${i}.webp`);
      await Promise.all(keys.map((key) => bare.put(key, Buffer.from(key))));

      await fallback.remove([...keys.slice(0, 12), 'images/e/gone.webp']);
      expect(warned).toHaveBeenCalledWith(expect.stringContaining('no DeleteObjects'));
      expect(await bare.keys('images/e/')).toEqual(keys.slice(12).sort());
      await fallback.remove(keys.slice(12));
      expect(await bare.keys('images/e/')).toEqual([]);
    } finally {
      fallback.destroy();
      await bare.stop();
    }
  });

  it('should refuse with SERVICE_UNAVAILABLE, naming nothing of the bucket, when S3 refuses', async () => {
    const missing = new S3ImageStorage({ bucket: 'no-such-bucket', endpoint: s3.endpoint });
    try {
      for (const work of [
        () => missing.put('images/f/original.jpg', Buffer.from('f'), 'image/jpeg'),
        () => all(missing.list('images/')),
        () => missing.remove(['images/f/original.jpg']),
      ]) {
        const { code, message } = await refusal(work());
        expect(code).toBe('SERVICE_UNAVAILABLE');
        expect(message).not.toMatch(/no-such-bucket|127\.0\.0\.1|NoSuchBucket/);
      }
      // The operator's log says what went wrong.
      expect(warned).toHaveBeenCalledWith(expect.stringMatching(/^PutObject .*NoSuchBucket/));
    } finally {
      missing.destroy();
    }
  });

  describe('against a server that never answers', () => {
    let silent: Server;
    const sockets = new Set<Socket>();
    let endpoint: string;

    beforeAll(async () => {
      const port = await freePort();
      silent = createServer((socket) => {
        sockets.add(socket);
        socket.on('error', () => undefined);
      });
      await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
      endpoint = `http://127.0.0.1:${port}`;
    });

    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('should give up within its time bound with SERVICE_UNAVAILABLE', async () => {
      const hung = new S3ImageStorage({ bucket: 'blog', endpoint, timeoutMs: 300 });
      try {
        const { code } = await refusal(hung.put('images/g/original.jpg', Buffer.alloc(10), 'x'));
        expect(code).toBe('SERVICE_UNAVAILABLE');
        expect((await refusal(all(hung.list('images/')))).code).toBe('SERVICE_UNAVAILABLE');
      } finally {
        hung.destroy();
      }
    });
  });

  describe('publicUrl', () => {
    it('should start with the public base URL when a CDN fronts the bucket', () => {
      const cdn = new S3ImageStorage({
        bucket: 'blog',
        endpoint: 'https://minio.example.com:9000',
        publicBaseUrl: 'https://images.example.com/',
      });
      expect(cdn.publicUrl('images/1/640.webp')).toBe(
        'https://images.example.com/images/1/640.webp',
      );
      cdn.destroy();
    });

    it("should be the bucket's virtual-host URL on AWS", () => {
      const aws = new S3ImageStorage({ bucket: 'blog-images', region: 'eu-west-3' });
      expect(aws.publicUrl('images/1/original.jpg')).toBe(
        'https://blog-images.s3.eu-west-3.amazonaws.com/images/1/original.jpg',
      );
      aws.destroy();
    });

    it('should address the bucket by host on an endpoint when path style is off', () => {
      const hosted = new S3ImageStorage({
        bucket: 'blog',
        endpoint: 'https://s3.example.com/',
        forcePathStyle: false,
      });
      expect(hosted.publicUrl('images/1/original.jpg')).toBe(
        'https://blog.s3.example.com/images/1/original.jpg',
      );
      hosted.destroy();
    });
  });
});
