import { createHash } from 'node:crypto';

import type { S3Client } from '@aws-sdk/client-s3';
import { Logger } from '@nestjs/common';

import { ImageStorage, StoredFile } from './image-storage';
import { messageOf, serviceUnavailable } from '../common/errors';

/** Where an {@link S3ImageStorage} keeps its files, and how it reaches them. */
export interface S3ImageStorageOptions {
  /** The bucket. */
  bucket: string;
  /** The bucket's region. Default `us-east-1`. */
  region?: string;
  /**
   * An S3-compatible server (`https://minio.example.com:9000`) instead of AWS. The bucket is then
   * addressed by path (`{endpoint}/{bucket}/{key}`) unless `forcePathStyle` is false.
   */
  endpoint?: string;
  /** Address the bucket by path rather than by host name. Default: true with an `endpoint`. */
  forcePathStyle?: boolean;
  /**
   * The public base of the files' URLs, such as a CDN in front of the bucket
   * (`https://images.example.com`): a key's URL is `{publicBaseUrl}/{key}`. Default: the bucket's
   * own URL, `{endpoint}/{bucket}` or `https://{bucket}.s3.{region}.amazonaws.com`.
   */
  publicBaseUrl?: string;
  /**
   * The longest one call (one put, one page of a listing, one batch of deletions) may take,
   * retries included, in ms. Default 10,000.
   */
  timeoutMs?: number;
}

/** Keys in one DeleteObjects request: S3's own limit. */
export const S3_DELETE_BATCH = 1000;
/** DeleteObject requests in flight at once, on a server without DeleteObjects. */
const SINGLE_DELETES_AT_ONCE = 8;
/** The Cache-Control of every file: a key's bytes never change (a new image is a new id). */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * Image files in an S3 bucket (AWS, or an S3-compatible server such as MinIO or Garage), with
 * the AWS SDK v3. Credentials come from the SDK's default chain (`AWS_ACCESS_KEY_ID` and
 * `AWS_SECRET_ACCESS_KEY`, a profile, a container or instance role).
 *
 * Bodies are sent buffered, with checksums only where the API requires them, so that servers
 * without the newest checksum headers store the bytes as sent, and DeleteObjects carries the
 * Content-MD5 that those servers want. Every call is bounded by
 * `timeoutMs`; a failure or a timeout is logged here and thrown as SERVICE_UNAVAILABLE, which
 * says nothing of the bucket or the server.
 */
export class S3ImageStorage implements ImageStorage {
  private readonly logger = new Logger('S3ImageStorage');
  private readonly sdk: typeof import('@aws-sdk/client-s3');
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  readonly putTimeoutMs: number;
  /** False once the server has answered that it has no DeleteObjects. */
  private multiDelete = true;

  constructor(options: S3ImageStorageOptions) {
    const region = options.region || 'us-east-1';
    const endpoint = options.endpoint?.replace(/\/+$/, '');
    const forcePathStyle = options.forcePathStyle ?? Boolean(endpoint);
    this.bucket = options.bucket;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.putTimeoutMs = this.timeoutMs;
    this.baseUrl = (
      options.publicBaseUrl || bucketUrl(options.bucket, region, endpoint, forcePathStyle)
    ).replace(/\/+$/, '');
    // Required here, not imported, so that a service on local storage loads none of the SDK.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.sdk = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
    this.client = new this.sdk.S3Client({
      region,
      endpoint,
      forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: {
        connectionTimeout: Math.min(this.timeoutMs, 5000),
        requestTimeout: this.timeoutMs,
        throwOnRequestTimeout: true,
      },
    });
    this.client.middlewareStack.addRelativeTo(contentMd5OfDeleteObjects as never, {
      name: 'contentMd5OfDeleteObjects',
      relation: 'before',
      toMiddleware: 'httpSigningMiddleware',
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.call('PutObject', (abortSignal) =>
      this.client.send(
        new this.sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentLength: body.length,
          ContentType: contentType,
          CacheControl: IMMUTABLE_CACHE_CONTROL,
        }),
        { abortSignal },
      ),
    );
  }

  async remove(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += S3_DELETE_BATCH) {
      const batch = keys.slice(start, start + S3_DELETE_BATCH);
      if (this.multiDelete && (await this.removeBatch(batch))) continue;
      await this.removeOneByOne(batch);
    }
  }

  async *list(prefix: string): AsyncIterable<StoredFile> {
    let ContinuationToken: string | undefined;
    do {
      const page = await this.call('ListObjectsV2', (abortSignal) =>
        this.client.send(
          new this.sdk.ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            ContinuationToken,
          }),
          { abortSignal },
        ),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield {
          key: object.Key,
          bytes: object.Size ?? 0,
          // A file of unknown age is taken as new: the sweep then leaves it alone.
          modifiedAt: object.LastModified ?? new Date(),
        };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  publicUrl(key: string): string {
    return `${this.baseUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  /** Closes the client's idle connections. */
  destroy(): void {
    this.client.destroy();
  }

  /** Deletes one batch with DeleteObjects; false when the server has no such request. */
  private async removeBatch(keys: readonly string[]): Promise<boolean> {
    let result;
    try {
      result = await this.call(
        'DeleteObjects',
        (abortSignal) =>
          this.client.send(
            new this.sdk.DeleteObjectsCommand({
              Bucket: this.bucket,
              Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
            }),
            { abortSignal },
          ),
        isNotImplemented,
      );
    } catch (error) {
      if (!(error instanceof MissingOperation)) throw error;
      this.logger.warn('The server has no DeleteObjects: deleting files one by one.');
      this.multiDelete = false;
      return false;
    }
    const failed = (result.Errors ?? []).filter((failure) => failure.Code !== 'NoSuchKey');
    if (failed.length) {
      const [first] = failed;
      this.logger.warn(
        `DeleteObjects left ${failed.length} of ${keys.length} files: ${first.Code}: ${first.Message}`,
      );
      throw unavailable();
    }
    return true;
  }

  private async removeOneByOne(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += SINGLE_DELETES_AT_ONCE) {
      await Promise.all(
        keys.slice(start, start + SINGLE_DELETES_AT_ONCE).map((Key) =>
          this.call(
            'DeleteObject',
            (abortSignal) =>
              this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key }), {
                abortSignal,
              }),
            isNoSuchKey,
          ).catch((error: unknown) => {
            if (!(error instanceof MissingOperation)) throw error;
          }),
        ),
      );
    }
  }

  /**
   * Runs one request within `timeoutMs`. An error that `expected` recognises is thrown as a
   * {@link MissingOperation} for the caller; any other is logged and becomes SERVICE_UNAVAILABLE.
   */
  private async call<T>(
    operation: string,
    send: (abortSignal: AbortSignal) => Promise<T>,
    expected?: (error: unknown) => boolean,
  ): Promise<T> {
    try {
      return await send(AbortSignal.timeout(this.timeoutMs));
    } catch (error) {
      if (expected?.(error)) throw new MissingOperation();
      this.logger.warn(`${operation} on bucket ${this.bucket} failed: ${describe(error)}`);
      throw unavailable();
    }
  }
}

/** The part of a request that {@link contentMd5OfDeleteObjects} reads and changes. */
interface OutgoingRequest {
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * DeleteObjects with a Content-MD5 of its body instead of the CRC32 that the SDK sends (even
 * `WHEN_REQUIRED`): AWS takes either, and MinIO and other S3-compatible servers want the MD5. As
 * the SDK's own MD5 fallback does, before the request is signed.
 */
function contentMd5OfDeleteObjects(
  next: (args: { request: OutgoingRequest }) => Promise<unknown>,
  context: { commandName?: string },
) {
  return (args: { request: OutgoingRequest }) => {
    const { request } = args;
    if (context.commandName === 'DeleteObjectsCommand' && typeof request.body === 'string') {
      for (const name of Object.keys(request.headers)) {
        if (/^x-amz-(sdk-)?checksum-/i.test(name)) delete request.headers[name];
      }
      request.headers['content-md5'] = createHash('md5').update(request.body).digest('base64');
    }
    return next(args);
  };
}

/** The refusal a client sees, whatever went wrong with the bucket. */
const unavailable = () =>
  serviceUnavailable('The image storage is unavailable for now; try again soon.');

/** An answer the caller has a way around (a missing operation, a key already gone). */
class MissingOperation extends Error {}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function isNotImplemented(error: unknown): boolean {
  const status = statusOf(error);
  return status === 501 || status === 405 || (error as Error | null)?.name === 'NotImplemented';
}

function isNoSuchKey(error: unknown): boolean {
  return statusOf(error) === 404 && (error as Error).name !== 'NoSuchBucket';
}

function describe(error: unknown): string {
  const status = statusOf(error);
  const name = error instanceof Error ? error.name : 'Error';
  return `${name}${status ? ` (HTTP ${status})` : ''}: ${messageOf(error)}`;
}

function bucketUrl(
  bucket: string,
  region: string,
  endpoint: string | undefined,
  pathStyle: boolean,
): string {
  if (!endpoint) {
    return pathStyle
      ? `https://s3.${region}.amazonaws.com/${bucket}`
      : `https://${bucket}.s3.${region}.amazonaws.com`;
  }
  if (pathStyle) return `${endpoint}/${encodeURIComponent(bucket)}`;
  const url = new URL(endpoint);
  url.hostname = `${bucket}.${url.hostname}`;
  return url.toString().replace(/\/+$/, '');
}
