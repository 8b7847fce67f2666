import { BlogContext, BlogRequest } from '../blog-context';

/**
 * The `context` option of the host's GraphQLModule for HTTP operations: Express passes
 * `{ req }`, Fastify the request itself. (Subscriptions get theirs from the blog's own
 * WebSocket server.)
 */
export function blogGraphQLContext(source: { req?: BlogRequest } | BlogRequest): BlogContext {
  if ('req' in source && source.req) return { req: source.req };
  return { req: source as BlogRequest };
}
