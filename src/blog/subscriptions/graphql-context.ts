import type { ServerResponse } from 'node:http';

import { BlogContext, BlogRequest } from '../blog-context';
import { currentRequestScope, httpRequestScope } from '../common/request-scope';

/** What Express hands the context function, or Fastify's request (with its reply after it). */
type ContextSource = { req?: BlogRequest; res?: ServerResponse } | BlogRequest;

/**
 * The `context` option of the host's GraphQLModule for HTTP operations: Express passes
 * `{ req, res }`, Fastify the request and its reply. (Subscriptions get theirs from the blog's
 * own WebSocket server.) The operation's {@link RequestScope} is the one the host runs the
 * request in (`runInRequestScope`), or else one stopped when the response's connection closes.
 */
export function blogGraphQLContext(
  source: ContextSource,
  reply?: { raw?: ServerResponse },
): BlogContext {
  const express = 'req' in source && source.req ? (source as { res?: ServerResponse }) : null;
  const req = express ? (source as { req: BlogRequest }).req : (source as BlogRequest);
  const response = express ? express.res : reply?.raw;
  const scope = currentRequestScope() ?? (response ? httpRequestScope(response) : undefined);
  return { req, scope };
}
