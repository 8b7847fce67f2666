import type { ImageStorage } from './image-storage';

/** The default: an upload of at most 10 MiB. */
export const DEFAULT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** The default: images of at most 40 megapixels, read from the header before decoding. */
export const DEFAULT_IMAGE_MAX_PIXELS = 40_000_000;
/** The default: 200 MiB of stored files per user, variants included. */
export const DEFAULT_IMAGE_QUOTA_BYTES = 200 * 1024 * 1024;
/** The default: 16 uploads may wait while others are processed; more are refused with 429. */
export const DEFAULT_IMAGE_PROCESSING_QUEUE = 16;
/** The default: 2 uploads are processed at once, each on sharp's (libuv's) threads. */
export const DEFAULT_IMAGE_PROCESSING_CONCURRENCY = 2;
/** The default folder of the local storage, when the host gives no storage. */
export const DEFAULT_IMAGE_DIR = './data';

/** Uploaded images: where they are stored, and the limits of an upload. Every field has a default. */
export interface BlogImagesOptions {
  /**
   * Where image files go: a `LocalImageStorage` (served by the module at
   * `GET /images/{id}/{name}`) or an `S3ImageStorage`. Default: a `LocalImageStorage` in
   * `./data/images`, its URLs on `http://localhost:3000/images`.
   */
  storage?: ImageStorage;
  /** The largest upload, in bytes, refused with 413 while it streams in. Default 10 MiB. */
  maxBytes?: number;
  /** The most pixels of an image (width × height), read from its header. Default 40,000,000. */
  maxPixels?: number;
  /** The stored bytes each user may have, variants included; more is refused with 413. Default 200 MiB. */
  quotaBytes?: number;
  /** Uploads that may wait for processing; one more is refused with 429. Default 16. */
  processingQueue?: number;
  /** Uploads processed at once, each on sharp's threads. Default 2. */
  processingConcurrency?: number;
}
