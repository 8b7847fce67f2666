import { rangeOf } from './images.controller';
import { isNotModified } from '../common/conditional-get';

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

  describe('a conditional GET of a file (isNotModified)', () => {
    const modified = new Date('2026-01-02T03:04:05.678Z');
    const file = { etag: ETAG, lastModified: modified };

    it('should match If-None-Match by its tags, weak ones and * included', () => {
      expect(isNotModified(file, { 'if-none-match': ETAG })).toBe(true);
      expect(isNotModified(file, { 'if-none-match': `"x", W/${ETAG}` })).toBe(true);
      expect(isNotModified(file, { 'if-none-match': '*' })).toBe(true);
      expect(isNotModified(file, { 'if-none-match': '"x"' })).toBe(false);
    });

    it('should read If-Modified-Since only without If-None-Match, to the second', () => {
      const since = modified.toUTCString();
      expect(isNotModified(file, { 'if-modified-since': since })).toBe(true);
      expect(isNotModified(file, { 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' })).toBe(
        false,
      );
      expect(isNotModified(file, { 'if-modified-since': since, 'if-none-match': '"x"' })).toBe(
        false,
      );
      expect(isNotModified(file, { 'if-modified-since': 'not a date' })).toBe(false);
      expect(isNotModified(file, {})).toBe(false);
    });
  });
});
