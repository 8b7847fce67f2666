/** One stored file, as the orphan sweep sees it. */
export interface StoredFile {
  key: string;
  bytes: number;
  modifiedAt: Date;
}

/** Where image files live: the local disk or an S3 bucket. */
export interface ImageStorage {
  /** Stores a file whole, or throws; never leaves a partial file under `key`. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Removes files; keys that are already gone are not an error. */
  remove(keys: readonly string[]): Promise<void>;
  /** Every stored file under `prefix` (`images/`), for the orphan sweep. */
  list(prefix: string): AsyncIterable<StoredFile>;
  /** The absolute public URL of a key. */
  publicUrl(key: string): string;
  /**
   * The longest one put may take, in ms, when it is bounded: an upload's lease is made from it
   * (see uploadLeaseMs). Unset for the local disk.
   */
  readonly putTimeoutMs?: number;
}

/** The Nest injection token of the ImageStorage in use. */
export const IMAGE_STORAGE = Symbol('IMAGE_STORAGE');
