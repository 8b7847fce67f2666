import { loadAppConfig } from './app.config';
import { InvalidEnvironmentError, readOptionalString } from './env';
import { SETTINGS } from './settings.schema';

/** Which web pages on other origins may call the API from a browser. */
export interface CorsConfig {
  /** `*` for any origin; otherwise exact origins (`https://app.example.com`), none when empty. */
  origins: '*' | readonly string[];
}

/**
 * `CORS_ORIGINS`: `*`, `none` or a comma-separated list of origins. Any origin by default
 * outside production (tokens travel in the authorization header, not in cookies, so a page on
 * another origin cannot borrow a user's session); none in production.
 */
export function loadCorsConfig(env: NodeJS.ProcessEnv = process.env): CorsConfig {
  const raw = readOptionalString(env, SETTINGS.CORS_ORIGINS);
  if (raw === undefined) {
    return { origins: loadAppConfig(env).nodeEnv === 'production' ? [] : '*' };
  }
  if (raw === '*') return { origins: '*' };
  if (raw.toLowerCase() === 'none') return { origins: [] };
  const origins = raw
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!isOrigin(origin)) {
      throw new InvalidEnvironmentError(
        'CORS_ORIGINS',
        `expected *, none or origins like https://app.example.com, got "${origin}"`,
      );
    }
  }
  return { origins };
}

/** An http(s) origin written the way browsers send it: scheme, host, port; no path or slash. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    // A browser sends one exact origin: no wildcard subdomains.
    return (
      ['http:', 'https:'].includes(url.protocol) &&
      url.origin === value &&
      !url.hostname.includes('*')
    );
  } catch {
    return false;
  }
}
