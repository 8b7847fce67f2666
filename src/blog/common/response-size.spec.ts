import type { FormattedExecutionResult } from 'graphql';

import { jsonWithin, limitedResultStringifier, responseTooLargeResult } from './response-size';

/** A value whose JSON is longer than a string can be, as V8 says when asked to build it. */
const tooLongForAString = {
  toJSON() {
    throw new RangeError('Invalid string length');
  },
};

describe('limitedResultStringifier', () => {
  const stringify = limitedResultStringifier(1_024);
  const tooLarge = `${JSON.stringify(responseTooLargeResult(1_024))}\n`;

  it('should send an answer within the limit as it is', () => {
    expect(stringify({ data: { a: 'b' } })).toBe('{"data":{"a":"b"}}\n');
  });

  it('should replace an answer past the limit by RESPONSE_TOO_LARGE', () => {
    expect(stringify({ data: { a: 'x'.repeat(2_000) } })).toBe(tooLarge);
  });

  it('should answer RESPONSE_TOO_LARGE, not throw, when the JSON is longer than a string can be', () => {
    const result = { data: { posts: tooLongForAString } } as unknown as FormattedExecutionResult;
    expect(stringify(result)).toBe(tooLarge);
    expect(JSON.parse(tooLarge)).toMatchObject({
      data: null,
      errors: [{ extensions: { code: 'RESPONSE_TOO_LARGE', maxResponseBytes: 1_024 } }],
    });
  });
});

describe('jsonWithin', () => {
  it('should give the JSON and its end, or null past the longest string', () => {
    expect(jsonWithin([1], '\n')).toBe('[1]\n');
    expect(jsonWithin(tooLongForAString)).toBeNull();
  });

  it('should throw any other error', () => {
    expect(() => jsonWithin({ n: 1n })).toThrow(TypeError);
    const deep = {
      toJSON() {
        throw new RangeError('Maximum call stack size exceeded');
      },
    };
    expect(() => jsonWithin(deep)).toThrow('Maximum call stack');
  });
});
