import { registerAs } from '@nestjs/config';

import { ImageStorage, LocalImageStorage, parseSiteUrl, S3ImageStorage } from '../blog';
import { loadAppConfig } from './app.config';
import { InvalidEnvironmentError, readEnum, readInteger, readOptionalString } from './env';
import { loadS3Config, S3Config } from './s3.config';
import { SETTINGS } from './settings.schema';
import { loadSiteConfig } from './site.config';

/** Where uploaded images are stored, and the limits of an upload. */
export interface ImagesConfig {
  storage: 'local' | 's3';
  /** The folder the local storage keeps `images/` in: `DATA_DIR`. */
  dataDir: string;
  /**
   * The absolute base of image URLs, without a trailing slash: `IMAGE_PUBLIC_BASE_URL`, else
   * (local storage) `SITE_URL` + `/images`, else `http://localhost:{PORT}/images`.
   */
  publicBaseUrl: string;
  maxBytes: number;
  maxPixels: number;
  quotaBytes: number;
  processingConcurrency: number;
  processingQueue: number;
  /** The bucket, with `STORAGE=s3`; null otherwise. */
  s3: S3Config | null;
}

/** `IMAGE_PUBLIC_BASE_URL`, without a trailing slash, or undefined when unset. */
function readPublicBaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = readOptionalString(env, SETTINGS.IMAGE_PUBLIC_BASE_URL);
  if (raw === undefined) return undefined;
  const url = parseSiteUrl(raw);
  if (url instanceof Error) throw new InvalidEnvironmentError('IMAGE_PUBLIC_BASE_URL', url.message);
  return url;
}

export function loadImagesConfig(env: NodeJS.ProcessEnv = process.env): ImagesConfig {
  const { dataDir, port } = loadAppConfig(env);
  const site = loadSiteConfig(env).url;
  const configured = readPublicBaseUrl(env);
  const publicBaseUrl = configured ?? (site ? `${site}/images` : `http://localhost:${port}/images`);
  const storage = readEnum(env, SETTINGS.STORAGE);
  return {
    storage,
    dataDir,
    publicBaseUrl,
    maxBytes: readInteger(env, SETTINGS.IMAGE_MAX_BYTES),
    maxPixels: readInteger(env, SETTINGS.IMAGE_MAX_PIXELS),
    quotaBytes: readInteger(env, SETTINGS.IMAGE_QUOTA_BYTES),
    processingConcurrency: readInteger(env, SETTINGS.IMAGE_PROCESSING_CONCURRENCY),
    processingQueue: readInteger(env, SETTINGS.IMAGE_PROCESSING_QUEUE),
    s3: loadS3Config(env, storage, configured),
  };
}

/** The storage `config` names: the local disk under `DATA_DIR`, or the S3 bucket. */
export function createImageStorage(config: ImagesConfig): ImageStorage {
  switch (config.storage) {
    case 'local':
      return new LocalImageStorage(config.dataDir, config.publicBaseUrl);
    case 's3':
      return new S3ImageStorage(config.s3!);
  }
}

export const imagesConfig = registerAs('images', () => loadImagesConfig());
