import type { User } from './user.entity';

/** Who is looking: a signed-in user, or null when anonymous. */
export type Viewer = User | null;

// The role rules live in roles.ts; isAdmin stays importable from here.
export { isAdmin } from './roles';
