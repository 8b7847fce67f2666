import { isNotModified } from './conditional-get';

describe('isNotModified', () => {
  const document = {
    etag: '"abc"',
    lastModified: new Date('2026-01-06T10:00:00.500Z'),
  };
  const lastModified = document.lastModified.toUTCString();

  it('should be true for an If-None-Match that names the tag, alone, in a list or weak', () => {
    expect(isNotModified(document, { 'if-none-match': '"abc"' })).toBe(true);
    expect(isNotModified(document, { 'if-none-match': '"x", "abc"' })).toBe(true);
    expect(isNotModified(document, { 'if-none-match': 'W/"abc"' })).toBe(true);
    expect(isNotModified(document, { 'if-none-match': '*' })).toBe(true);
  });

  it('should be false for an If-None-Match of other tags, whatever If-Modified-Since says', () => {
    expect(isNotModified(document, { 'if-none-match': '"abd"' })).toBe(false);
    expect(isNotModified(document, { 'if-none-match': 'abc' })).toBe(false);
    expect(
      isNotModified(document, { 'if-none-match': '"x"', 'if-modified-since': lastModified }),
    ).toBe(false);
  });

  it('should compare If-Modified-Since with Last-Modified in whole seconds', () => {
    expect(isNotModified(document, { 'if-modified-since': lastModified })).toBe(true);
    const later = new Date(document.lastModified.getTime() + 60_000).toUTCString();
    expect(isNotModified(document, { 'if-modified-since': later })).toBe(true);
    const earlier = new Date(document.lastModified.getTime() - 1_000).toUTCString();
    expect(isNotModified(document, { 'if-modified-since': earlier })).toBe(false);
  });

  it('should ignore an If-Modified-Since that is not a date, and answer in full without validators', () => {
    expect(isNotModified(document, { 'if-modified-since': 'yesterday' })).toBe(false);
    expect(isNotModified(document, {})).toBe(false);
  });
});
