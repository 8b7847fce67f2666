import { excerptOf, RenderedContent } from '../common/content';
import { badUserInput } from '../common/errors';

/** What a post's card shows of its content: the excerpt and the word count. */
export interface PostCardText {
  excerpt: string;
  wordCount: number;
}

/** The card of rendered content: the author's excerpt, or else the start of the text. */
export function postCard(rendered: RenderedContent, customExcerpt: string | null): PostCardText {
  return { excerpt: customExcerpt ?? excerptOf(rendered.text), wordCount: rendered.wordCount };
}

/**
 * `url` as stored: BAD_USER_INPUT (for `field`) unless it is an absolute URL of one of
 * `schemes` with a host and no user name or password.
 */
export function absoluteUrl(url: string, field: string, schemes: readonly string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badUserInput(`${field} must be an absolute URL.`, field);
  }
  const scheme = parsed.protocol.slice(0, -1);
  if (!schemes.includes(scheme)) {
    throw badUserInput(`${field} must be a ${schemes.join(' or ')} URL.`, field);
  }
  if (!parsed.hostname) throw badUserInput(`${field} must name a host.`, field);
  if (parsed.username || parsed.password) {
    throw badUserInput(`${field} may not hold a user name or password.`, field);
  }
  return parsed.href;
}
