import type { Request } from 'express';
import type { User } from '../users/user.entity';
import type { BlogLoaders } from './blog-loaders';

/** Who is looking: a signed-in user, or null when anonymous. */
export type Viewer = User | null;

export function isAdmin(viewer: Viewer): boolean {
  return viewer?.role === 'admin';
}

/**
 * The GraphQL context of one request, as the blog sees it. The viewer and loaders are filled in
 * by ViewerGuard before the first blog resolver runs, once per request.
 */
export interface BlogContext {
  req?: Request;
  /** The signed-in user, or null. */
  viewer?: Viewer;
  /** Batching loaders, created once per request. */
  loaders?: BlogLoaders;
  /** The authentication in flight, shared by root fields resolved in parallel. */
  viewerResolution?: Promise<Viewer>;
}
