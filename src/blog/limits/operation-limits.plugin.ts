import type { IncomingHttpHeaders } from 'node:http';

import {
  ApolloServerPlugin,
  GraphQLRequestListener,
  GraphQLResponse,
  HTTPGraphQLRequest,
} from '@apollo/server';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import { Plugin } from '@nestjs/apollo';
import { Inject } from '@nestjs/common';
import Negotiator from 'negotiator';

import { ViewerGuard } from '../auth/viewer.guard';
import { BlogContext } from '../blog-context';
import { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { documentKeyOf, OperationRules } from './operation-rules';
import { countWrites, WriteRateLimiter } from './write-rate-limit';
import { ErrorCode, refusal } from '../common/errors';
import { RequestScope } from '../common/request-scope';
import { collapsedTooLargeResult, DEFAULT_MAX_RESPONSE_BYTES } from '../common/response-size';
import { Viewer } from '../users/viewer';

/** The media types Apollo chooses between for a single result, in its order of preference. */
const APPLICATION_JSON = 'application/json; charset=utf-8';
const SINGLE_RESULT_MEDIA_TYPES = [
  APPLICATION_JSON,
  'application/graphql-response+json; charset=utf-8',
  'application/json; callbackSpec=1.0; charset=utf-8',
];

/**
 * Codes of the errors that refuse a well-formed request before it runs: the document does not
 * parse or validate, a limit refuses it, its variables do not fit, or its documentId names no
 * trusted document. An operation name that names no operation is not among them: it stays 400
 * whatever the media type, as a client's mistake that no retry of the same request can mend.
 */
const REQUEST_ERROR_CODES = new Set<unknown>([
  ApolloServerErrorCode.GRAPHQL_PARSE_FAILED,
  ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
  ErrorCode.BadUserInput,
  ApolloServerErrorCode.PERSISTED_QUERY_NOT_FOUND,
]);

const SUBSCRIPTION_OVER_HTTP =
  'Subscriptions run over the WebSocket only (graphql-ws on this path); send queries and mutations over HTTP.';

/**
 * Applies {@link OperationRules} to every HTTP operation once Apollo has parsed and validated
 * it, before anything runs, and refuses subscriptions (`BAD_REQUEST`), which run over the
 * WebSocket only. The WebSocket server applies the same rules to its operations. Then it
 * takes a mutation's writes from the signed-in user's allowance, all of them or none
 * ({@link WriteRateLimiter}), so a refused request writes nothing.
 *
 * It gives each operation its response budget (`maxResponseBytes`, see RequestScope), and an
 * answer that execution cut short for passing it is sent as that one RESPONSE_TOO_LARGE error.
 *
 * It also sets the status of every refusal before execution, Apollo's own and the rules', by
 * the media type of the answer, as GraphQL over HTTP asks: 400 for
 * `application/graphql-response+json` (and for a request with no `Accept` header, which the
 * spec treats so since its 2025 watershed, though Apollo still labels that answer
 * `application/json`), and 200 when the client asked for `application/json`.
 */
@Plugin()
export class OperationLimitsPlugin implements ApolloServerPlugin {
  private readonly maxResponseBytes: number;

  constructor(
    private readonly rules: OperationRules,
    private readonly writes: WriteRateLimiter,
    private readonly viewers: ViewerGuard,
    @Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions,
  ) {
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /** One listener for every request: it keeps nothing of its own between hooks. */
  private readonly listener: GraphQLRequestListener<Record<string, unknown>> = {
    didResolveOperation: async ({
      request,
      document,
      schema,
      queryHash,
      contextValue,
      operation,
    }) => {
      if (operation?.operation === 'subscription') {
        throw refusal(ErrorCode.BadRequest, SUBSCRIPTION_OVER_HTTP);
      }
      this.rules.check(
        schema,
        document,
        queryHash ?? documentKeyOf(request.query ?? ''),
        request.operationName,
        request.variables,
        request,
      );
      // The answer's byte budget, charged by the resolvers of large values.
      ((contextValue as BlogContext).scope ??= new RequestScope()).limitResponse(
        this.maxResponseBytes,
      );
      if (!this.writes.enabled) return;
      const units = countWrites(
        schema,
        document,
        request.operationName,
        request.variables,
        request,
      );
      if (units > 0) await this.limitWrites(contextValue as BlogContext, units);
    },
    willSendResponse: async ({ request, response, operation }) => {
      // Execution stopped past the response limit: the client gets that one error.
      const tooLarge =
        response.body.kind === 'single' && response.body.singleResult.errors
          ? collapsedTooLargeResult(response.body.singleResult)
          : null;
      if (tooLarge && response.body.kind === 'single') response.body.singleResult = tooLarge;
      if (request.http?.method === 'GET' && operation?.operation === 'subscription') {
        refuseSubscriptionOverGet(response);
        return;
      }
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

  async requestDidStart(): Promise<GraphQLRequestListener<Record<string, unknown>>> {
    return this.listener;
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
    if (viewer) await this.writes.consume(viewer, units);
  }
}

/**
 * Apollo answers a subscription sent by GET before any plugin can, as it answers a mutation:
 * 405 with `Allow: POST`. POST does not take subscriptions either, so the answer becomes the
 * one a POST gets: 400, BAD_REQUEST.
 */
function refuseSubscriptionOverGet(response: GraphQLResponse): void {
  response.http.status = 400;
  response.http.headers.delete('allow');
  response.body = {
    kind: 'single',
    singleResult: {
      errors: [{ message: SUBSCRIPTION_OVER_HTTP, extensions: { code: ErrorCode.BadRequest } }],
    },
  };
}

/**
 * True when the client's `Accept` header names application/json itself and Apollo answers with
 * it; a bare wildcard (curl's and fetch's default) asks for no media type in particular, so it
 * keeps the 400 of the specification's current media type.
 */
function answersPlainJson(http: HTTPGraphQLRequest): boolean {
  const accept = http.headers.get('accept');
  if (!accept || !/(^|,)\s*application\/json\s*(;|,|$)/i.test(accept)) return false;
  const headers: IncomingHttpHeaders = { accept };
  return new Negotiator({ headers }).mediaType(SINGLE_RESULT_MEDIA_TYPES) === APPLICATION_JSON;
}
