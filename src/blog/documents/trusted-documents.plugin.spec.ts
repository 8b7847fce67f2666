import { createHash } from 'node:crypto';

import { GraphQLRequest, GraphQLRequestContext } from '@apollo/server';
import { GraphQLError } from 'graphql';

import { BlogModuleOptions } from '../blog-options.interface';
import { TRUSTED_DOCUMENT_REQUIRED, TrustedDocuments } from './trusted-documents';
import { TrustedDocumentsPlugin } from './trusted-documents.plugin';

const QUERY = '{ posts { id } }';
const HASH = createHash('sha256').update(QUERY).digest('hex');

const plugin = (only: boolean) =>
  new TrustedDocumentsPlugin(
    new TrustedDocuments({
      jwtSecret: 's'.repeat(32),
      trustedDocuments: { documents: { [HASH]: QUERY }, only },
    } as BlogModuleOptions),
  );

const start = (only: boolean, request: GraphQLRequest) =>
  plugin(only).requestDidStart({ request } as GraphQLRequestContext<Record<string, unknown>>);

describe('TrustedDocumentsPlugin', () => {
  it('should give a request it lets through no listener, so that Apollo runs no hook of it', async () => {
    await expect(start(false, { query: '{ me { id } }' })).resolves.toBeUndefined();
  });

  it('should put the trusted document in the query, with no listener', async () => {
    const request: GraphQLRequest = {
      query: undefined,
      http: { method: 'POST', body: { documentId: `sha256:${HASH}` } } as GraphQLRequest['http'],
    };
    await expect(start(true, request)).resolves.toBeUndefined();
    expect(request.query).toBe(QUERY);
  });

  it('should answer a refused request with its error once the operation is resolved', async () => {
    const request: GraphQLRequest = { query: '{ me { id } }', operationName: 'Me' };
    const listener = await start(true, request);
    expect(request).toMatchObject({ query: '{ __typename }', operationName: undefined });
    const refusal = listener!.didResolveOperation!({} as never);
    await expect(refusal).rejects.toBeInstanceOf(GraphQLError);
    await expect(refusal).rejects.toMatchObject({
      extensions: { code: 'BAD_REQUEST', reason: TRUSTED_DOCUMENT_REQUIRED },
    });
  });
});
