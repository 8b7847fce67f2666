import { registerAs } from '@nestjs/config';

import { checkPostPath, parseSiteUrl } from '../blog';
import { InvalidEnvironmentError, readEnum, readOptionalString, readString } from './env';
import { SETTINGS } from './settings.schema';

/** Where the front-end shows posts, and what its feeds carry. */
export interface SiteConfig {
  /** The front-end's origin (and base path) without a trailing slash; null when unset. */
  url: string | null;
  postPath: string;
  feedContent: 'excerpt' | 'full';
}

export function loadSiteConfig(env: NodeJS.ProcessEnv = process.env): SiteConfig {
  const raw = readOptionalString(env, SETTINGS.SITE_URL);
  const url = raw ? parseSiteUrl(raw) : null;
  if (url instanceof Error) throw new InvalidEnvironmentError('SITE_URL', url.message);
  const postPath = checkPostPath(readString(env, SETTINGS.SITE_POST_PATH));
  if (postPath instanceof Error)
    throw new InvalidEnvironmentError('SITE_POST_PATH', postPath.message);
  return { url, postPath, feedContent: readEnum(env, SETTINGS.FEED_CONTENT) };
}

export const siteConfig = registerAs('site', () => loadSiteConfig());
