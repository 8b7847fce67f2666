import { createHash } from 'node:crypto';

import { persistedQueryRefusal } from './automatic-persisted-queries';

const QUERY = '{ posts { id } }';
const HASH = createHash('sha256').update(QUERY).digest('hex');
const codeOf = (query: unknown, extensions: unknown) =>
  persistedQueryRefusal(query, extensions)?.extensions;

describe('persistedQueryRefusal', () => {
  it('should let a request without an automatic persisted query through', () => {
    expect(persistedQueryRefusal(QUERY, undefined)).toBeNull();
    expect(persistedQueryRefusal(QUERY, { documentId: 'x' })).toBeNull();
    expect(persistedQueryRefusal(QUERY, { persistedQuery: null })).toBeNull();
  });

  it('should let a matching hash through, and a hash sent alone (for Apollo to look up)', () => {
    expect(
      persistedQueryRefusal(QUERY, { persistedQuery: { version: 1, sha256Hash: HASH } }),
    ).toBeNull();
    expect(
      persistedQueryRefusal(undefined, { persistedQuery: { version: 1, sha256Hash: HASH } }),
    ).toBeNull();
  });

  it('should refuse a hash that is not the lower-case hex SHA-256 of the query', () => {
    for (const sha256Hash of [HASH.toUpperCase(), 'f'.repeat(64), undefined, 42]) {
      expect(codeOf(QUERY, { persistedQuery: { version: 1, sha256Hash } })).toEqual({
        code: 'PERSISTED_QUERY_HASH_MISMATCH',
        http: { status: 400 },
      });
    }
  });

  it('should refuse any version but 1, with or without a query', () => {
    for (const persistedQuery of [
      { version: 2, sha256Hash: HASH },
      { sha256Hash: HASH },
      'yes',
      1,
    ]) {
      for (const query of [QUERY, undefined]) {
        expect(codeOf(query, { persistedQuery })).toEqual({
          code: 'PERSISTED_QUERY_NOT_SUPPORTED',
          http: { status: 400 },
        });
      }
    }
  });
});
