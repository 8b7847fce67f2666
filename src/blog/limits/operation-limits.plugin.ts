import type { IncomingHttpHeaders } from 'node:http';
import { ApolloServerPlugin, GraphQLRequestListener, HTTPGraphQLRequest } from '@apollo/server';
import { Plugin } from '@nestjs/apollo';
import Negotiator from 'negotiator';
import { ViewerGuard } from '../auth/viewer.guard';
import { BlogContext } from '../blog-context';
import { Viewer } from '../users/viewer';
import { documentKeyOf, OperationRules } from './operation-rules';
import { countWrites, WriteRateLimiter } from './write-rate-limit';

/** The media types Apollo chooses between for a single result, in its order of preference. */
const APPLICATION_JSON = 'application/json; charset=utf-8';
const SINGLE_RESULT_MEDIA_TYPES = [
  APPLICATION_JSON,
  'application/graphql-response+json; charset=utf-8',
  'application/json; callbackSpec=1.0; charset=utf-8',
];

/**
 * Codes of the errors that refuse a well-formed request before it runs: the document does not
 * parse or validate, a limit refuses it, its variables do not fit, its operation is not in it,
 * or its documentId names no trusted document.
 */
const REQUEST_ERROR_CODES = new Set<unknown>([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
]);

/**
 * Applies {@link OperationRules} to every HTTP operation once Apollo has parsed and validated
 * it, before anything runs. The WebSocket server applies the same rules to its operations.
 * Then it takes a mutation's writes from the signed-in user's allowance, all of them or none
 * ({@link WriteRateLimiter}), so a refused request writes nothing.
 *
 * It also sets the status of every refusal before execution, Apollo's own and the rules', by
 * the media type of the answer, as GraphQL over HTTP asks: 400 for
 * `application/graphql-response+json` (and for a request with no `Accept` header, which the
 * spec treats so since its 2025 watershed, though Apollo still labels that answer
 * `application/json`), and 200 when the client asked for `application/json`.
 */
@Plugin()
export class OperationLimitsPlugin implements ApolloServerPlugin {
  constructor(
    private readonly rules: OperationRules,
    private readonly writes: WriteRateLimiter,
    private readonly viewers: ViewerGuard,
  ) {}

  async requestDidStart(): Promise<GraphQLRequestListener<Record<string, unknown>>> {
    return {
      didResolveOperation: async ({ request, document, schema, queryHash, contextValue }) => {
        this.rules.check(
          schema,
          document,
          queryHash ?? documentKeyOf(request.query ?? ''),
          request.operationName,
          request.variables,
        );
        if (!this.writes.enabled) return;
        const units = countWrites(schema, document, request.operationName, request.variables);
        if (units > 0) await this.limitWrites(contextValue as BlogContext, units);
      },
      willSendResponse: async ({ request, response }) => {
        if (response.http.status !== 400 || !request.http || !answersPlainJson(request.http)) {
          return;
        }
        const result = response.body.kind === 'single' ? response.body.singleResult : undefined;
        const refused =
          result?.data === undefined &&
          !!result?.errors?.length &&
          result.errors.every((error) => REQUEST_ERROR_CODES.has(error.extensions?.code));
        if (refused) response.http.status = 200;
      },
    };
  }

  /**
   * Anonymous requests have no allowance (their mutations other than signUp and logIn are
   * refused anyway); a bad token is left for ViewerGuard to refuse as it always does.
   */
  private async limitWrites(context: BlogContext, units: number): Promise<void> {
    let viewer: Viewer;
    try {
      viewer = await this.viewers.viewerBeforeExecution(context);
    } catch {
      return;
    }
    if (viewer) await this.writes.consume(viewer.id, units);
  }
}

/** True when the client sent an `Accept` header and Apollo answers it with application/json. */
function answersPlainJson(http: HTTPGraphQLRequest): boolean {
  const accept = http.headers.get('accept');
  if (!accept) return false;
  const headers: IncomingHttpHeaders = { accept };
  return new Negotiator({ headers }).mediaType(SINGLE_RESULT_MEDIA_TYPES) === APPLICATION_JSON;
}
