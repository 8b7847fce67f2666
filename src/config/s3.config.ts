import type { S3ImageStorageOptions } from '../blog';
import {
  InvalidEnvironmentError,
  readBoolean,
  readInteger,
  readOptionalString,
  readString,
} from './env';
import { SETTINGS } from './settings.schema';

/** The bucket of `STORAGE=s3`: what `S3ImageStorage` is given. */
export type S3Config = S3ImageStorageOptions & { region: string; forcePathStyle: boolean };

/** AWS's rule for bucket names, which S3-compatible servers follow too. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * The S3 settings, read and checked when `STORAGE=s3` (null otherwise, whatever they hold):
 * `S3_BUCKET` is then required. `publicBaseUrl` is `IMAGE_PUBLIC_BASE_URL`, already checked.
 */
export function loadS3Config(
  env: NodeJS.ProcessEnv,
  storage: 'local' | 's3',
  publicBaseUrl: string | undefined,
): S3Config | null {
  if (storage !== 's3') return null;
  const bucket = readOptionalString(env, SETTINGS.S3_BUCKET);
  if (bucket === undefined) {
    throw new InvalidEnvironmentError(
      'S3_BUCKET',
      'STORAGE=s3 needs the name of the bucket that keeps the image files',
    );
  }
  if (!BUCKET_NAME.test(bucket)) {
    throw new InvalidEnvironmentError(
      'S3_BUCKET',
      `${SETTINGS.S3_BUCKET.allowed}, got "${bucket}"`,
    );
  }
  const endpoint = readEndpoint(env);
  return {
    bucket,
    endpoint,
    region: readString(env, SETTINGS.S3_REGION),
    forcePathStyle: readBoolean(env, SETTINGS.S3_FORCE_PATH_STYLE, endpoint !== undefined),
    timeoutMs: readInteger(env, SETTINGS.S3_TIMEOUT_MS),
    publicBaseUrl,
  };
}

/** `S3_ENDPOINT` without a trailing slash, or undefined for AWS. */
function readEndpoint(env: NodeJS.ProcessEnv): string | undefined {
  const raw = readOptionalString(env, SETTINGS.S3_ENDPOINT);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidEnvironmentError(
      'S3_ENDPOINT',
      'expected an http(s) URL such as https://minio.example.com:9000',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidEnvironmentError('S3_ENDPOINT', 'expected an http or https URL');
  }
  // Never quoted here: a URL with a user name may hold a password.
  if (url.username || url.password || url.search || url.hash) {
    throw new InvalidEnvironmentError(
      'S3_ENDPOINT',
      'may hold no user name, password, query or fragment (credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)',
    );
  }
  return url.href.replace(/\/+$/, '');
}
