import { createHash } from 'node:crypto';

import { GraphQLError } from 'graphql';

import { ErrorCode, refusal } from '../common/errors';

/**
 * Why Apollo would refuse the automatic persisted query (APQ) a request carries in
 * `extensions.persistedQuery`, as a coded error, or null when it would not. Apollo refuses an
 * unsupported version and a `sha256Hash` that does not match the `query` sent with it, but with
 * errors that have no code, which the formatter masks and logs as unexpected; these are the
 * client's mistakes, so they get `PERSISTED_QUERY_*` codes and HTTP 400. A hash sent without a
 * query is left to Apollo (`PERSISTED_QUERY_NOT_FOUND` when it does not know the hash).
 */
export function persistedQueryRefusal(query: unknown, extensions: unknown): GraphQLError | null {
  const persisted =
    extensions !== null && typeof extensions === 'object'
      ? (extensions as { persistedQuery?: unknown }).persistedQuery
      : undefined;
  if (!persisted) return null;
  const { version, sha256Hash } = persisted as { version?: unknown; sha256Hash?: unknown };
  if (version !== 1) {
    return refusal(
      ErrorCode.PersistedQueryNotSupported,
      'Unsupported persisted query version: only version 1 is supported.',
    );
  }
  if (query === undefined) return null;
  const hash = createHash('sha256')
    .update(typeof query === 'string' ? query : '')
    .digest('hex');
  if (sha256Hash === hash) return null;
  return refusal(
    ErrorCode.PersistedQueryHashMismatch,
    'The persisted query sha256Hash does not match the query sent with it: send the lower-case hex SHA-256 of the query text.',
  );
}
