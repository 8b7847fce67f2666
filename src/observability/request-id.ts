import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a caller may send as its own request id: short, and safe to echo into a header or a log. */
const WELL_FORMED = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The id of a request: the caller's `x-request-id` when it is well-formed, so that a trace
 * through several services keeps one id, and a fresh UUID otherwise (Fastify's `genReqId`).
 */
export function requestIdOf(request: { headers: IncomingHttpHeaders }): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && WELL_FORMED.test(given) ? given : randomUUID();
}
