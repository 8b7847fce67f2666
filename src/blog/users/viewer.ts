import type { User } from './user.entity';

/** Who is looking: a signed-in user, or null when anonymous. */
export type Viewer = User | null;

export function isAdmin(viewer: Viewer): boolean {
  return viewer?.role === 'admin';
}
