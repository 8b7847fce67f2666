import { registerEnumType } from '@nestjs/graphql';

import type { Viewer } from './viewer';
import { forbidden, unauthenticated } from '../common/errors';

/**
 * What a member may do on the blog. Stored in `users.role` in lower case (`admin`): see
 * {@link storedRole} and {@link roleOf}.
 */
export enum Role {
  ADMIN = 'ADMIN',
  EDITOR = 'EDITOR',
  AUTHOR = 'AUTHOR',
  CONTRIBUTOR = 'CONTRIBUTOR',
}

registerEnumType(Role, {
  name: 'Role',
  description: 'What a member may do on the blog. Visible to everyone.',
  valuesMap: {
    ADMIN: {
      description:
        "Everything an editor may, and edits or deletes anyone's posts and comments and changes roles.",
    },
    EDITOR: {
      description:
        "Publishes, schedules and unpublishes their own posts and anyone's they can see, reads the review queue and rejects posts.",
    },
    AUTHOR: { description: 'Publishes, schedules and unpublishes their own posts.' },
    CONTRIBUTOR: {
      description: 'Writes drafts and submits them for review; an editor publishes them.',
    },
  },
});

const ROLES: ReadonlySet<string> = new Set(Object.values(Role));

/** How `role` is stored in `users.role`. */
export function storedRole(role: Role): string {
  return role.toLowerCase();
}

/**
 * The role of a stored value. `user`, the only role besides `admin` before roles came (migration
 * 1765007000000), reads as an author, so that a row an older instance writes during a rolling
 * upgrade keeps its powers; anything else unknown gets the fewest powers.
 */
export function roleOf(stored: string): Role {
  const role = stored.toUpperCase();
  if (ROLES.has(role)) return role as Role;
  return role === 'USER' ? Role.AUTHOR : Role.CONTRIBUTOR;
}

/** Reads and writes `users.role` for TypeORM: {@link roleOf} and {@link storedRole}. */
export const ROLE_COLUMN = {
  from: (stored: string | null) => (stored === null ? null : roleOf(stored)),
  to: (role: Role | undefined) => (role === undefined ? undefined : storedRole(role)),
};

/** Admins: every editor's power, plus editing and deleting anyone's posts and comments, and roles. */
export function isAdmin(viewer: Viewer): boolean {
  return viewer?.role === Role.ADMIN;
}

/** Editors and admins: they review, publish anyone's post they can see, and moderate. */
export function isModerator(viewer: Viewer): boolean {
  return viewer?.role === Role.ADMIN || viewer?.role === Role.EDITOR;
}

/**
 * The viewer, when they are a moderator (an editor or an admin): UNAUTHENTICATED when anonymous,
 * FORBIDDEN otherwise, saying they may not `what` ("ban users").
 */
export function moderatorOf(viewer: Viewer, what: string): NonNullable<Viewer> {
  if (!viewer) throw unauthenticated(`You must be signed in to ${what}.`);
  if (!isModerator(viewer)) throw forbidden(`Only editors and admins ${what}.`);
  return viewer;
}

/** Whether `viewer` may publish, schedule or unpublish posts at all (their own at least). */
export function canPublish(viewer: Viewer): boolean {
  return isModerator(viewer) || viewer?.role === Role.AUTHOR;
}

/**
 * Whether `viewer` may publish, schedule or unpublish `post`: their own when they publish at
 * all, anyone's when they are an editor or an admin.
 */
export function canPublishFor(viewer: Viewer, post: { authorId: string }): boolean {
  if (isModerator(viewer)) return true;
  return post.authorId === viewer?.id && canPublish(viewer);
}
