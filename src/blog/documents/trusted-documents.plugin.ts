import {
  ApolloServerPlugin,
  GraphQLRequest,
  GraphQLRequestContext,
  GraphQLRequestListener,
} from '@apollo/server';
import { Plugin } from '@nestjs/apollo';
import { GraphQLError } from 'graphql';

import { persistedQueryRefusal } from './automatic-persisted-queries';
import { DocumentRequest, TrustedDocuments } from './trusted-documents';

/**
 * What Apollo parses in place of a refused request's document. Apollo catches a plugin's
 * refusal only from `didResolveOperation` on (an earlier hook that throws answers 500), so a
 * refused request carries this until then and never has its own text parsed.
 */
const REFUSED_PLACEHOLDER = '{ __typename }';

/**
 * Puts the trusted document a request names by `documentId` (POST body, GET query string, or
 * `extensions.documentId`) in its `query` before Apollo reads it, so GET works without a
 * `query` and every later hook, limits included, sees the real text. Requests that
 * {@link TrustedDocuments} refuses are answered with its error before any of their text is
 * parsed, and so are automatic persisted queries that Apollo would refuse without a code
 * ({@link persistedQueryRefusal}). Other requests get no listener: Apollo runs every listener's
 * hooks through `Promise.all` at each step, an empty one included.
 */
@Plugin()
export class TrustedDocumentsPlugin implements ApolloServerPlugin {
  constructor(private readonly documents: TrustedDocuments) {}

  async requestDidStart({
    request,
  }: GraphQLRequestContext<Record<string, unknown>>): Promise<GraphQLRequestListener<
    Record<string, unknown>
  > | void> {
    try {
      const query = this.documents.documentFor(documentRequestOf(request));
      if (query !== undefined) request.query = query;
      const refused = persistedQueryRefusal(request.query, request.extensions);
      if (refused) throw refused;
      return;
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      replaceWithPlaceholder(request);
      return {
        didResolveOperation: async () => {
          throw error;
        },
      };
    }
  }
}

/** The request's fields, with a top-level `documentId` from the POST body or the GET query. */
function documentRequestOf(request: GraphQLRequest): DocumentRequest {
  const http = request.http;
  let documentId: unknown;
  if (http?.method === 'GET') {
    documentId = new URLSearchParams(http.search).get('documentId') ?? undefined;
  } else if (http?.body !== null && typeof http?.body === 'object') {
    documentId = (http.body as { documentId?: unknown }).documentId;
  }
  return { query: request.query, documentId, extensions: request.extensions };
}

function replaceWithPlaceholder(request: GraphQLRequest): void {
  request.query = REFUSED_PLACEHOLDER;
  request.operationName = undefined;
  request.variables = undefined;
  // Apollo would otherwise check an automatic persisted query's hash against the placeholder.
  if (request.extensions) {
    const { persistedQuery, ...extensions } = request.extensions;
    request.extensions = extensions;
  }
}
