import type { FastifyInstance, FastifyRequest } from 'fastify';

import { ErrorCode } from '../blog';
import { pathOf, PROBE_PATHS } from '../observability/paths';

/**
 * A `Host` as RFC 9110 has it: a registered name or an IP literal, then maybe a port. No
 * percent-encoding, which URL parsers decode into what the name may not hold.
 */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9\-._~!$&'()*+,;=]+)(?::\d{0,5})?$/i;

const MESSAGE = 'The Host header is missing or invalid.';

/**
 * True when the request names a host the URL of the request can be built on, as Apollo's
 * integration does: a request without one (HTTP/1.0 allows it; Node refuses it in HTTP/1.1), or
 * with a malformed one (`a b`, empty), would otherwise fail there as a 500 with an error logged.
 * The host is the one Fastify reads, `X-Forwarded-Host` from a trusted proxy included.
 */
export function hasUsableHost(request: FastifyRequest): boolean {
  const host = request.host;
  if (!host || !HOST.test(host)) return false;
  return URL.canParse(request.url, `${request.protocol}://${request.hostname}/`);
}

/**
 * Answers 400 to a request without a usable `Host` ({@link hasUsableHost}): `BAD_REQUEST` at the
 * GraphQL endpoint, as any malformed request there, a plain 400 elsewhere. Probes answer
 * whatever the host: they build no URL, and some balancers' health checks send HTTP/1.0 without
 * one.
 */
export function refuseBadHosts(fastify: FastifyInstance): void {
  // Before the body is read, and after the request id is set (onRequest), for the answer.
  fastify.addHook('preParsing', (request, reply, _payload, done) => {
    const path = pathOf(request.url) ?? '';
    if (PROBE_PATHS.has(path) || hasUsableHost(request)) return done();
    const graphql = path === '/graphql' || path === '/graphql/';
    void reply
      .code(400)
      .send(
        graphql
          ? { errors: [{ message: MESSAGE, extensions: { code: ErrorCode.BadRequest } }] }
          : { statusCode: 400, error: 'Bad Request', message: MESSAGE },
      );
  });
}
