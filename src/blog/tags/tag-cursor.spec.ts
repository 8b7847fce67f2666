import { GraphQLError } from 'graphql';

import { decodeTagCursor, encodeTagCursor } from './tag-cursor';

describe('tag cursors', () => {
  it('should read back the count and slug it was made of, Unicode included', () => {
    for (const tag of [
      { count: 3, slug: 'typescript' },
      { count: 0, slug: 'café-norm' },
      { count: 120_000, slug: '日本語-タグ' },
    ]) {
      expect(decodeTagCursor(encodeTagCursor(tag))).toEqual(tag);
    }
  });

  it.each([
    ['not base64 of a cursor', 'nonsense'],
    ['a post cursor', Buffer.from('post:1:abc').toString('base64url')],
    ['a count that is not a number', Buffer.from('tag:x:rust').toString('base64url')],
    ['no slug', Buffer.from('tag:3:').toString('base64url')],
  ])('should refuse %s with BAD_USER_INPUT', (_, cursor) => {
    let refusal: unknown;
    try {
      decodeTagCursor(cursor);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GraphQLError);
    expect((refusal as GraphQLError).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'after',
    });
  });
});
