import type { IncomingHttpHeaders } from 'node:http';

import type { BlogLoaders } from './blog-loaders';
import type { RequestScope } from './common/request-scope';
import type { User } from './users/user.entity';
import { isAdmin, Viewer } from './users/viewer';

/** What the blog reads of an HTTP request, on Express and on Fastify alike. */
export interface BlogRequest {
  headers: IncomingHttpHeaders;
  ip?: string;
}

/**
 * The GraphQL context of one request, as the blog sees it. The viewer and loaders are filled in
 * by ViewerGuard before the first blog resolver runs, once per request.
 */
export interface BlogContext {
  req?: BlogRequest;
  /** The signed-in user, or null. */
  viewer?: Viewer;
  /** Batching loaders, created once per request. */
  loaders?: BlogLoaders;
  /**
   * The operation's life: stopped when its client goes away or its answer grows past the
   * response limit; resolvers of large values charge the answer's byte budget to it.
   */
  scope?: RequestScope;
  /** Accounts this response has just signed in (signUp, logIn): their private fields show. */
  signedInNow?: Set<string>;
  /**
   * Whether the module refuses writes of accounts whose address is not verified
   * (`mail.requireVerifiedEmail`), set by ViewerGuard with the viewer.
   */
  requireVerifiedEmail?: boolean;
  /** The authentication in flight, shared by root fields resolved in parallel. */
  viewerResolution?: Promise<Viewer>;
  /**
   * On a long-lived connection (a subscription): re-reads the viewer before an event is sent,
   * resetting the loaders; false when the connection has ended (expired token, deleted user).
   * `findUser` reads the row, so that the subscribers of one event are read in one batch.
   */
  refreshViewer?: (findUser?: (id: string) => Promise<User | null>) => Promise<boolean>;
}

/** True when the response may show `userId`'s private fields (email): to themself and admins. */
export function mayViewPrivateFields(context: BlogContext, userId: string): boolean {
  const viewer = context.viewer ?? null;
  return viewer?.id === userId || isAdmin(viewer) || (context.signedInNow?.has(userId) ?? false);
}
