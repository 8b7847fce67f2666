import { prefixedColumns } from './prefixed';

describe('prefixedColumns', () => {
  it('should name each column of a select list under the prefix, keeping its own name', () => {
    expect(prefixedColumns('u.id, u.token_version AS "tokenVersion"', 'author')).toBe(
      'u.id AS "author.id", u.token_version AS "author.tokenVersion"',
    );
  });
});
