import { notModified, rangeOf } from './images.controller';

const ETAG = '"1f4-18c"';
const SIZE = 500;

describe('serving image files', () => {
  describe('rangeOf', () => {
    it.each([
      ['bytes=0-99', { start: 0, end: 99 }],
      ['bytes=100-', { start: 100, end: 499 }],
      ['bytes=400-9999', { start: 400, end: 499 }],
      ['bytes=-50', { start: 450, end: 499 }],
      ['bytes=-9999', { start: 0, end: 499 }],
    ])('should read %s', (range, expected) => {
      expect(rangeOf({ range }, ETAG, SIZE)).toEqual(expected);
    });

    it.each(['bytes=500-', 'bytes=600-700', 'bytes=-0'])(
      'should find %s unsatisfiable',
      (range) => {
        expect(rangeOf({ range }, ETAG, SIZE)).toBe('unsatisfiable');
      },
    );

    it.each(['items=0-9', 'bytes=0-9,20-29', 'bytes=9-0', 'bytes=-', 'bytes=a-b', ''])(
      'should send the whole file for %j',
      (range) => {
        expect(rangeOf({ range }, ETAG, SIZE)).toBeNull();
      },
    );

    it('should honour a range only while If-Range still names the file', () => {
      expect(rangeOf({ range: 'bytes=0-9', 'if-range': ETAG }, ETAG, SIZE)).toEqual({
        start: 0,
        end: 9,
      });
      expect(rangeOf({ range: 'bytes=0-9', 'if-range': '"old"' }, ETAG, SIZE)).toBeNull();
    });
  });

  describe('notModified', () => {
    const modified = new Date('2026-01-02T03:04:05.678Z');

    it('should match If-None-Match by its tags, weak ones and * included', () => {
      expect(notModified({ 'if-none-match': ETAG }, ETAG, modified)).toBe(true);
      expect(notModified({ 'if-none-match': `"x", W/${ETAG}` }, ETAG, modified)).toBe(true);
      expect(notModified({ 'if-none-match': '*' }, ETAG, modified)).toBe(true);
      expect(notModified({ 'if-none-match': '"x"' }, ETAG, modified)).toBe(false);
    });

    it('should read If-Modified-Since only without If-None-Match, to the second', () => {
      const since = modified.toUTCString();
      expect(notModified({ 'if-modified-since': since }, ETAG, modified)).toBe(true);
      expect(
        notModified({ 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' }, ETAG, modified),
      ).toBe(false);
      expect(
        notModified({ 'if-modified-since': since, 'if-none-match': '"x"' }, ETAG, modified),
      ).toBe(false);
      expect(notModified({ 'if-modified-since': 'not a date' }, ETAG, modified)).toBe(false);
      expect(notModified({}, ETAG, modified)).toBe(false);
    });
  });
});
