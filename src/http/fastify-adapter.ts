import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import fastifyMultipart from '@fastify/multipart';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';

import { httpRequestScope, runInRequestScope } from '../blog';
import { AppConfig, HttpConfig } from '../config';
import { Admission } from './admission';
import { addressMatcher, proxyTrust, trustsProxies } from './client-address';
import { capConnectionsPerClient } from './connections-per-client';
import { refuseBadHosts } from './host-header';
import { CorsConfig, loadCorsConfig } from '../config/cors.config';
import { BlogMetrics, fastifyObservabilityOptions } from '../observability';
import { pathOf, PROBE_PATHS } from '../observability/paths';

/**
 * The Fastify adapter of the standalone service, with the HTTP server's timeouts: a request
 * whose headers and body do not arrive within `requestTimeoutMs` is answered 408 and closed,
 * checked every second (Node's default check runs every 30 s), so slow-body clients cannot
 * hold sockets open; each client address holds at most `maxConnectionsPerClient` connections
 * ({@link capConnectionsPerClient}); and a request without a usable `Host` is answered 400
 * ({@link refuseBadHosts}); multipart bodies are read by @fastify/multipart, for image uploads.
 * `logger` is the app's pino logger (none: no logs); request ids and
 * the access log come from src/observability.
 */
export function createFastifyAdapter(
  app: Pick<AppConfig, 'trustProxy'>,
  http: HttpConfig,
  logger?: Logger,
): FastifyAdapter {
  const trust = proxyTrust(app.trustProxy);
  const adapter = new FastifyAdapter({
    ...fastifyObservabilityOptions(logger),
    // A function, the one the WebSocket server's address and the connection caps use: Fastify
    // 5.12 reads a bare hop count as "trust nothing", which left every client behind a proxy one
    // address.
    trustProxy: trustsProxies(app.trustProxy) ? trust : false,
    requestTimeout: http.requestTimeoutMs,
    connectionTimeout: http.connectionTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    bodyLimit: http.maxBodyBytes,
    // A path parameter as sent, percent-encoded: a tag's slug of 64 letters of any script (the
    // feed at /tags/{slug}/feed.xml) takes up to 768 characters; Fastify's default is 100.
    routerOptions: { maxParamLength: 768 },
    http: {
      headersTimeout: Math.min(http.requestTimeoutMs, 60_000),
      connectionsCheckingInterval: 1_000,
    },
  });
  capConnectionsPerClient(adapter.getInstance(), {
    max: http.maxConnectionsPerClient,
    trust,
    exempt: addressMatcher(http.clientCapExempt),
  });
  refuseBadHosts(adapter.getInstance());
  // Image uploads (POST /images) read multipart/form-data through @fastify/multipart, with the
  // limits the route sets; no other route reads it.
  void adapter.getInstance().register(fastifyMultipart, { throwFileSizeLimit: true });
  return adapter;
}

/**
 * What the standalone service sets on its app before it starts, in one place for `main.ts`
 * and the e2e suites: the connection cap and CORS (`cors` defaults to `CORS_ORIGINS`).
 */
export function configureApp(
  app: NestFastifyApplication,
  http: HttpConfig,
  cors: CorsConfig = loadCorsConfig(),
): void {
  (app.getHttpServer() as Server).maxConnections = http.maxConnections;
  // Requests start a few per turn of the event loop, each client's in turn, and no more than
  // `maxRequestsInFlight` at once (see Admission); probes answer at once, even behind a queue. A
  // request whose connection has closed while it waited never starts.
  const admission = new Admission({ maxInFlight: http.maxRequestsInFlight });
  app.get(BlogMetrics, { strict: false }).watchAdmission(admission);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preHandler', (request, reply, done) => {
      if (PROBE_PATHS.has(pathOf(request.url) ?? '')) return done();
      admission.admit(
        (finished) => {
          // The place is given back once the answer is written or the connection has closed,
          // whichever comes first: a response emits 'close' in both cases.
          if (admission.capped) {
            if (reply.raw.closed) finished();
            else reply.raw.once('close', finished);
          }
          done();
        },
        () => clientGone(request.raw, reply.raw),
        request.ip,
      );
    });
  // Once started, a request runs in a scope that stops its remaining work when its client hangs
  // up (see RequestScope): statements not begun yet and later root mutation fields are refused.
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preHandler', (_request, reply, done) =>
      runInRequestScope(httpRequestScope(reply.raw), done),
    );
  if (cors.origins.length > 0) app.enableCors(corsOptions(cors));
}

/**
 * True once the client can no longer receive the answer: its connection has ended or closed.
 * The end of the client's side is the first sign, a turn of the event loop before the socket is
 * destroyed, and enough: Node's HTTP server does not keep half-open connections, so it ends
 * that socket too and no answer would get through.
 */
function clientGone(request: IncomingMessage, response: ServerResponse): boolean {
  const socket = request.socket as Socket | null;
  return response.destroyed || !socket || socket.destroyed || socket.readableEnded;
}

/** Headers a browser client may send: the token, JSON, Apollo's CSRF header, a request id. */
const CORS_ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'apollo-require-preflight',
  'x-request-id',
];

/**
 * `@fastify/cors` through Nest: preflights of allowed origins answer 204 and are cached for
 * ten minutes; no credentials, since the token travels in a header and not in a cookie. Apollo's
 * CSRF prevention still refuses simple requests (a GET or a form POST without a preflight).
 */
function corsOptions(cors: CorsConfig) {
  return {
    origin: cors.origins === '*' ? '*' : [...cors.origins],
    methods: ['GET', 'POST'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: ['x-request-id'],
    credentials: false,
    maxAge: 600,
  };
}
