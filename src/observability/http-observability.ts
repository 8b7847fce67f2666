import { timingSafeEqual } from 'node:crypto';

import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
  LogController,
} from 'fastify';
import pino, { Logger } from 'pino';

import { BlogMetrics } from './metrics';
import { pathOf, PROBE_PATHS } from './paths';
import { operationLogged, requestLoggers } from './request-context';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { databaseConfig } from '../config/database.config';
import { observabilityConfig } from '../config/observability.config';

/**
 * One access line per HTTP request that has no GraphQL operation line of its own (/health,
 * /metrics, 404s, requests Apollo refuses before parsing), without the query string, where GET
 * operations carry their variables.
 */
class AccessLogController extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (!error && operationLogged.has(request)) return;
    const url = pathOf(request.url);
    const fields = {
      method: request.method,
      url,
      statusCode: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      clientAddress: request.ip,
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else if (reply.statusCode < 400 && PROBE_PATHS.has(url ?? ''))
      reply.log.debug(fields, 'request completed');
    else reply.log.info(fields, 'request completed');
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'route not found');
  }
}

/**
 * The Fastify options of the observability: `logger` (omit it for no logs), request ids taken
 * from a well-formed `x-request-id` or generated, and the access log.
 */
export function fastifyObservabilityOptions(logger?: Logger): FastifyServerOptions {
  return {
    ...(logger ? { loggerInstance: logger as FastifyBaseLogger } : {}),
    genReqId: requestIdOf,
    requestIdHeader: false,
    logController: new AccessLogController(),
  };
}

/**
 * Fastify hooks of the observability, added once: every response carries `x-request-id`, the
 * handler runs with the request's logger in reach of Nest's Logger, and `GET /metrics` serves
 * the Prometheus metrics when they are on.
 */
@Injectable()
export class HttpObservability implements OnModuleInit {
  private root: Logger = pino({ level: 'silent' });

  constructor(
    @Inject(observabilityConfig.KEY)
    private readonly config: ConfigType<typeof observabilityConfig>,
    @Inject(databaseConfig.KEY)
    private readonly database: ConfigType<typeof databaseConfig>,
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: BlogMetrics,
  ) {}

  /** Fastify's logger (the app's pino logger), for lines that belong to no request. */
  get logger(): Logger {
    return this.root;
  }

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (adapter?.getType() !== 'fastify') return;
    const fastify = adapter.getInstance<FastifyInstance>();
    this.root = fastify.log as unknown as Logger;
    fastify.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });
    // Lines logged through Nest's Logger or TypeORM's during a request (debug lines, SQL
    // statements) carry its id through AsyncLocalStorage, which on Node 22 hooks every promise
    // (Node 24 and later carry it without hooks): only when such lines are logged. The operation
    // line and unexpected errors carry it without.
    if (this.root.isLevelEnabled?.('debug') || this.database.logging) {
      fastify.addHook('preHandler', (request, _reply, done) => {
        requestLoggers.run(request.log as unknown as Logger, done);
      });
    }
    if (this.config.metrics.enabled) {
      fastify.get('/metrics', (request, reply) => this.serveMetrics(request, reply));
    }
  }

  private async serveMetrics(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const token = this.config.metrics.token;
    if (token !== null && !sameSecret(request.headers.authorization, `Bearer ${token}`)) {
      reply.code(401).header('www-authenticate', 'Bearer');
      return 'Unauthorized\n';
    }
    // The route exists only while metrics are on, and so the registry with it.
    const registry = this.metrics.registry!;
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  }
}

function sameSecret(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
