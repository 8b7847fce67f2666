import { createHash } from 'node:crypto';

import { GraphQLError } from 'graphql';

import { BlogModuleOptions } from '../blog-options.interface';
import { TrustedDocuments } from './trusted-documents';

const QUERY = '{ posts { id } }';
const HASH = createHash('sha256').update(QUERY).digest('hex');

const trusted = (only: boolean) =>
  new TrustedDocuments({
    jwtSecret: 's'.repeat(32),
    trustedDocuments: { documents: { [HASH]: QUERY }, only },
  } as BlogModuleOptions);

function codeOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    if (error instanceof GraphQLError) return error.extensions.reason ?? error.extensions.code;
    throw error;
  }
  return undefined;
}

describe('TrustedDocuments', () => {
  it('should refuse to be built from a manifest whose hash does not match', () => {
    expect(
      () =>
        new TrustedDocuments({
          jwtSecret: 's'.repeat(32),
          trustedDocuments: { documents: { [HASH]: `${QUERY}\n` } },
        }),
    ).toThrow(/does not match its document/);
  });

  it('should find a document by sha256:<hex>, by <hex> in either case, and in extensions', () => {
    const documents = trusted(true);
    expect(documents.documentFor({ documentId: `sha256:${HASH}` })).toBe(QUERY);
    expect(documents.documentFor({ documentId: HASH.toUpperCase() })).toBe(QUERY);
    expect(documents.documentFor({ query: '', extensions: { documentId: HASH } })).toBe(QUERY);
  });

  it('should pass text through unless only trusted documents run', () => {
    expect(trusted(false).documentFor({ query: '{ me { id } }' })).toBe('{ me { id } }');
    expect(trusted(false).documentFor({})).toBeUndefined();
    expect(codeOf(() => trusted(true).documentFor({ query: '{ me { id } }' }))).toBe(
      'TRUSTED_DOCUMENT_REQUIRED',
    );
    expect(codeOf(() => trusted(true).documentFor({}))).toBe('TRUSTED_DOCUMENT_REQUIRED');
  });

  it('should refuse unknown and malformed ids, and an id sent with a query, in either mode', () => {
    for (const documents of [trusted(false), trusted(true)]) {
      for (const documentId of ['', 'x', `sha1:${HASH}`, `sha256:${HASH}0`, 42, { id: HASH }]) {
        expect(codeOf(() => documents.documentFor({ documentId }))).toBe(
          'PERSISTED_QUERY_NOT_FOUND',
        );
      }
      expect(codeOf(() => documents.documentFor({ query: QUERY, documentId: HASH }))).toBe(
        'BAD_REQUEST',
      );
    }
  });
});
