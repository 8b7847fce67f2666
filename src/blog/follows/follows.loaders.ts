import DataLoader from 'dataloader';

import { FollowsService } from './follows.service';
import { counts, LoaderCache, viewerFlags } from '../common/loaders';
import { Viewer } from '../users/viewer';

/** The follow loaders of one request: a user's follower and following counts, and whether the viewer follows them. */
export function followsLoaders(follows: FollowsService, cache: LoaderCache, viewer: Viewer) {
  return {
    get followersCount(): DataLoader<string, number> {
      return cache.once('followersCount', () => counts((ids) => follows.countFollowers(ids)));
    },

    get followingCount(): DataLoader<string, number> {
      return cache.once('followingCount', () => counts((ids) => follows.countFollowing(ids)));
    },

    get followedByViewer(): DataLoader<string, boolean> {
      return cache.once('followedByViewer', () =>
        viewerFlags(viewer?.id ?? null, (viewerId, ids) => follows.followedBy(viewerId, ids)),
      );
    },
  };
}

export type FollowsLoaders = ReturnType<typeof followsLoaders>;
