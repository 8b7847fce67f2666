/** What a conditional GET compares: a strong entity tag, quoted, and the time of the last change. */
export interface Validators {
  etag: string;
  lastModified: Date;
}

/** The request headers a conditional GET reads, as Node.js hands them over. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/** The text of a header sent once, or of its first copy. */
export function headerOf(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The opaque tags of an `If-None-Match` list, without `W/`: `*` for any. */
function entityTags(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter((tag) => tag.length > 0);
}

/**
 * Whether a GET or HEAD of `document` answers 304 Not Modified (RFC 9110, 13.2.2): with
 * `If-None-Match`, when one of its tags matches the document's (the weak comparison, so `W/`
 * is ignored) and whatever `If-Modified-Since` says; without it, when `If-Modified-Since` is a
 * date no older than the document's `Last-Modified`, compared in whole seconds as HTTP dates
 * are written. A date that does not parse is ignored.
 */
export function isNotModified(document: Validators, headers: RequestHeaders): boolean {
  const ifNoneMatch = headerOf(headers, 'if-none-match');
  if (ifNoneMatch !== undefined) {
    const tags = entityTags(ifNoneMatch);
    return tags.includes('*') || tags.includes(document.etag);
  }
  const ifModifiedSince = headerOf(headers, 'if-modified-since');
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  if (Number.isNaN(since)) return false;
  return Math.floor(document.lastModified.getTime() / 1000) <= Math.floor(since / 1000);
}
