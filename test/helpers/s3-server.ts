import { ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

import { within } from './built-service';

/** The account s3rver knows: its access key id and secret are both `S3RVER`. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** One object as the test reads it back from the bucket. */
export interface BucketObject {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
}

/**
 * A real S3-protocol server for a test: s3rver (`@20minutes/s3rver`) in a child process (see
 * `s3-server-process.js`), on a free port of 127.0.0.1, with one empty bucket in a temporary
 * folder; `stop` ends it and removes the folder. Reads go through a client of the test's own, so
 * a test checks what the bucket holds, not what the app says it wrote. Like MinIO, it refuses a
 * DeleteObjects without a valid Content-MD5.
 */
export class S3TestServer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly directory: string,
    readonly endpoint: string,
    readonly bucket: string,
    readonly client: S3Client,
  ) {}

  /**
   * `withoutDeleteObjects` answers DeleteObjects with 501 NotImplemented, as some S3-compatible
   * servers do.
   */
  static async start(
    options: { bucket?: string; withoutDeleteObjects?: boolean } = {},
  ): Promise<S3TestServer> {
    const { bucket = 'blog-images', withoutDeleteObjects = false } = options;
    const directory = mkdtempSync(join(tmpdir(), 'blog-s3-'));
    const child = fork(
      join(__dirname, 's3-server-process.js'),
      [JSON.stringify({ directory, bucket, withoutDeleteObjects })],
      { execArgv: ['--openssl-legacy-provider'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
    );
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    try {
      const port = await within(
        new Promise<number>((resolve, reject) => {
          child.once('message', (message: { port: number }) => resolve(message.port));
          child.once('exit', (code) => reject(new Error(`s3rver exited (${code}): ${errors}`)));
        }),
        20_000,
        's3rver to listen',
      );
      const endpoint = `http://127.0.0.1:${port}`;
      const client = new S3Client({
        region: 'us-east-1',
        endpoint,
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return new S3TestServer(child, directory, endpoint, bucket, client);
    } catch (error) {
      child.kill('SIGKILL');
      rmSync(directory, { recursive: true, force: true });
      throw error;
    }
  }

  /** The settings that point the app at this server (credentials through the SDK's chain). */
  env(): Record<string, string> {
    return {
      STORAGE: 's3',
      S3_BUCKET: this.bucket,
      S3_ENDPOINT: this.endpoint,
      S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    };
  }

  /** Every key under `prefix`, sorted. */
  async keys(prefix = ''): Promise<string[]> {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken }),
      );
      keys.push(...(page.Contents ?? []).map((object) => object.Key!));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys.sort();
  }

  async get(key: string): Promise<BucketObject> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return {
      body: Buffer.from(await object.Body!.transformToByteArray()),
      contentType: object.ContentType,
      cacheControl: object.CacheControl,
    };
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
        return false;
      throw error;
    }
  }

  /** Writes an object straight into the bucket, as a crash part-way through an upload would. */
  async put(key: string, body: Buffer, contentType = 'image/webp'): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async stop(): Promise<void> {
    this.client.destroy();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.send({ stop: true });
      await within(exited, 5000, 's3rver to stop').catch(() => this.child.kill('SIGKILL'));
    }
    rmSync(this.directory, { recursive: true, force: true });
  }
}
