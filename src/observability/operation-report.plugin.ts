import { performance } from 'node:perf_hooks';

import {
  ApolloServerPlugin,
  GraphQLRequestContextWillSendResponse,
  GraphQLRequestListener,
} from '@apollo/server';
import { Plugin } from '@nestjs/apollo';
import type { FastifyRequest } from 'fastify';
import { getOperationAST, OperationDefinitionNode } from 'graphql';
import type { Logger } from 'pino';

import { reportUnexpectedErrors, type BlogContext } from '../blog';
import { HttpObservability } from './http-observability';
import { BlogMetrics } from './metrics';
import type { OperationReport } from './operation-report';
import { operationLogged } from './request-context';

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

type Context = BlogContext & { req?: Partial<FastifyRequest> };

/**
 * One log line and one set of metrics per GraphQL operation over HTTP: its name and type, how
 * long it took, its outcome and error codes, who asked and from where. An operation that fails
 * validation is named from its parsed document; one that cannot be parsed, from the request's
 * `operationName` if that is a GraphQL name. Variables and the query text are never logged.
 */
@Plugin()
export class OperationReportPlugin implements ApolloServerPlugin<Context> {
  constructor(
    private readonly http: HttpObservability,
    private readonly metrics: BlogMetrics,
  ) {}

  async requestDidStart(): Promise<GraphQLRequestListener<Context>> {
    const startedAt = performance.now();
    let valid = false;
    return {
      didResolveOperation: async () => {
        valid = true;
      },
      // Logged here, with the request's logger and so its id, rather than by the formatter.
      didEncounterErrors: async ({ errors, contextValue }) => {
        const log = contextValue.req?.log as Partial<Logger> | undefined;
        // An app started without a pino logger has Fastify's no-op one: the formatter then logs
        // through Nest's Logger.
        if (typeof log?.isLevelEnabled !== 'function' || !log.error) return;
        const error = log.error.bind(log);
        reportUnexpectedErrors(errors, (message, stack) =>
          error({ context: 'GraphQL', ...(stack ? { stack } : {}) }, message),
        );
      },
      willSendResponse: async (requestContext) => {
        const report = reportOf(requestContext, performance.now() - startedAt, valid);
        this.metrics.record(report);
        this.log(requestContext.contextValue, report);
      },
    };
  }

  private log(context: Context, report: OperationReport): void {
    const req = context.req;
    if (req) operationLogged.add(req);
    const { valid, signedIn, ...fields } = report;
    (req?.log ?? this.http.logger).info(
      {
        ...fields,
        durationMs: Math.round(report.durationMs * 10) / 10,
        userId: context.viewer?.id ?? null,
        clientAddress: req?.ip ?? null,
      },
      'graphql operation',
    );
  }
}

function reportOf(
  requestContext: GraphQLRequestContextWillSendResponse<Context>,
  durationMs: number,
  valid: boolean,
): OperationReport {
  const { request, response, document } = requestContext;
  const operation: OperationDefinitionNode | null | undefined =
    requestContext.operation ?? (document && getOperationAST(document, request.operationName));
  const body = response.body.kind === 'single' ? response.body.singleResult : undefined;
  const errors = body?.errors ?? requestContext.errors ?? [];
  const errorCodes = errors.map((error) => {
    const code = error.extensions?.code;
    return typeof code === 'string' ? code : 'UNKNOWN';
  });
  const clientName = request.operationName;
  const operationName = operation
    ? (operation.name?.value ?? null)
    : !document && clientName && GRAPHQL_NAME.test(clientName)
      ? clientName
      : null;
  return {
    operationName,
    operationType: operation?.operation ?? 'unknown',
    outcome: errors.length === 0 ? 'success' : body?.data ? 'partial' : 'error',
    errorCodes,
    durationMs,
    valid,
    signedIn: !!requestContext.contextValue.viewer,
  };
}
