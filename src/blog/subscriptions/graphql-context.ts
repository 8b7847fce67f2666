import { ModuleRef } from '@nestjs/core';
import { ConnectionAuthService, ConnectionParams } from '../auth/connection-auth.service';
import { BlogContext, BlogRequest, Viewer } from '../common/blog-context';

/** Close code when `connectionParams.authorization` holds a bad token. */
export const WS_UNAUTHORIZED = 4401;

interface WsExtra {
  socket: { close(code: number, reason: string): void };
  viewer?: Viewer;
}

/**
 * The `subscriptions` option of the host's GraphQLModule: graphql-ws on `path`, checking the
 * client's token at `connection_init` (a bad one closes the socket with 4401 and a reason; no
 * token subscribes anonymously).
 */
export function blogSubscriptions(moduleRef: ModuleRef, path = '/graphql') {
  return {
    'graphql-ws': {
      path,
      onConnect: async (context: {
        connectionParams?: Readonly<ConnectionParams>;
        extra: unknown;
      }) => {
        const auth = moduleRef.get(ConnectionAuthService, { strict: false });
        const result = await auth.authenticate(context.connectionParams);
        const extra = context.extra as WsExtra;
        if ('rejected' in result) {
          extra.socket.close(WS_UNAUTHORIZED, `Unauthorized: ${result.rejected}`);
          return false;
        }
        extra.viewer = result.viewer;
        return true;
      },
    },
  };
}

/**
 * The `context` option of the host's GraphQLModule: the request for HTTP operations (Express
 * passes `{ req }`, Fastify the request itself), the connection's viewer for subscriptions.
 */
export function blogGraphQLContext(
  source: { req?: BlogRequest; extra?: WsExtra } | BlogRequest,
): BlogContext {
  if ('extra' in source && source.extra?.socket) return { viewer: source.extra.viewer ?? null };
  if ('req' in source && source.req) return { req: source.req };
  return { req: source as BlogRequest };
}
