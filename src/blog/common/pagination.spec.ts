import { GraphQLError } from 'graphql';

import {
  cursorGroups,
  decodeCursor,
  encodeCursor,
  opaqueCursor,
  opaqueCursorText,
  toConnectionPage,
  toPage,
} from './pagination';

describe('toPage', () => {
  it('should default first to 20 and after to null', () => {
    expect(toPage({})).toEqual({ first: 20, after: null });
    expect(toPage({ first: null, after: null })).toEqual({ first: 20, after: null });
  });

  it('should accept 0 to 100 and an id', () => {
    const after = '01900000-0000-7000-8000-000000000000';
    expect(toPage({ first: 0 })).toEqual({ first: 0, after: null });
    expect(toPage({ first: 100, after })).toEqual({ first: 100, after });
  });

  it.each([[-1], [101], [1.5]])('should refuse first = %p as BAD_USER_INPUT', (first) => {
    const error = (() => {
      try {
        toPage({ first });
      } catch (e) {
        return e as GraphQLError;
      }
    })();
    expect(error?.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'first' });
  });

  it('should refuse an after that is not an id', () => {
    expect(() => toPage({ after: "1' OR 1=1" })).toThrow(/after must be the id/);
  });
});

describe('toPage after', () => {
  it('should keep an id in lower case, as ids are stored', () => {
    const after = '01900000-0000-7000-8000-00000000000A';
    expect(toPage({ after }).after).toBe(after.toLowerCase());
  });
});

describe('connection cursors', () => {
  const id = '01900000-0000-7000-8000-00000000000a';
  const publishedAt = new Date('2024-05-06T07:08:09.123Z');
  const fault = (cursor: string) => {
    try {
      decodeCursor(cursor);
    } catch (e) {
      return (e as GraphQLError).extensions;
    }
  };

  it('should carry the publishedAt and id of the item, opaquely', () => {
    const cursor = encodeCursor({ id, publishedAt });
    expect(cursor).not.toContain(id);
    expect(decodeCursor(cursor)).toEqual({ id, publishedAt });
  });

  it('should read a cursor of the first form, post:<id>, as an id to look up', () => {
    const cursor = Buffer.from(`post:${id.toUpperCase()}`).toString('base64url');
    expect(decodeCursor(cursor)).toEqual({ id, publishedAt: null });
  });

  it.each([
    ['not base64', 'not-a-cursor'],
    ['another prefix', Buffer.from(`user:${id}`).toString('base64url')],
    ['no id', Buffer.from('post:1714979289123:').toString('base64url')],
    ['a time that is not a number', Buffer.from(`post:soon:${id}`).toString('base64url')],
  ])('should refuse %s as BAD_USER_INPUT on after', (_, cursor) => {
    expect(fault(cursor)).toEqual({ code: 'BAD_USER_INPUT', field: 'after' });
  });

  it('should make a connection page that needs no lookup', () => {
    const after = encodeCursor({ id, publishedAt });
    expect(toConnectionPage({ first: 2, after })).toEqual({
      first: 2,
      after: id,
      afterPublishedAt: publishedAt,
    });
    expect(toConnectionPage({})).toEqual({ first: 20, after: null, afterPublishedAt: null });
  });
});

describe('opaqueCursorText', () => {
  const encode = (bytes: number[] | string) =>
    (typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes)).toString('base64url');

  it('should read back the text of every cursor opaqueCursor makes', () => {
    for (const text of ['post:1:abc', 'tag:3:café', 'tag:1:日本語', 'tag:1:😀', '']) {
      expect(opaqueCursorText(opaqueCursor(text))).toBe(text);
    }
  });

  it.each([
    ['a NUL', encode('tag:1:a\u0000b')],
    ['a NUL alone', encode([0])],
    ['an escape', encode('tag:1:\u001b[31m')],
    ['a DEL', encode('tag:1:\u007f')],
    ['a C1 control', encode('tag:1:\u0085')],
    ['a line feed', encode('tag:1:a\nb')],
    ['bytes that are not UTF-8', encode([0x74, 0x61, 0x67, 0x3a, 0x31, 0x3a, 0xff, 0xfe])],
    ['a truncated UTF-8 sequence', encode([0x74, 0x3a, 0xe6, 0x97])],
    ['an overlong encoding of /', encode([0x74, 0x3a, 0xc0, 0xaf])],
    ['an encoded lone surrogate', encode([0x74, 0x3a, 0xed, 0xa0, 0x80])],
    ['base64 padding', `${encode('tag:1:ab')}==`],
    ['the + and / of plain base64', Buffer.from([0xfb, 0xff]).toString('base64')],
    ['characters outside base64url', 'dGFnOjE6YQ!'],
    ['a NUL character in the cursor itself', 'dGFn\u0000OjE6YQ'],
    ['spaces', 'not a cursor'],
    ['trailing bits that no encoder writes', 'dGFnOjE6YR'],
  ])('should refuse %s', (_, cursor) => {
    expect(opaqueCursorText(cursor)).toBeNull();
  });

  it('should make every decoder answer BAD_USER_INPUT on after, never pass the byte on', () => {
    const hostile = encode('tag:1:a\u0000');
    expect(() => cursorGroups(hostile, /^tag:(\d+):(.+)$/su, 'bad cursor')).toThrow(
      expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT', field: 'after' } }),
    );
    const id = '01900000-0000-7000-8000-00000000000a';
    expect(() => decodeCursor(encode(`post:1:${id}\u0000`))).toThrow(/endCursor/);
  });
});
