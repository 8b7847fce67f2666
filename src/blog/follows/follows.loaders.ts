import DataLoader from 'dataloader';

import { FollowsService } from './follows.service';
import { counts, LoaderCache, LoadersOf, viewerFlags } from '../common/loaders';
import { Viewer } from '../users/viewer';

/** The follow loaders of one request: a user's follower and following counts, and whether the viewer follows them. */
class RequestFollowsLoaders {
  constructor(
    private readonly follows: FollowsService,
    private readonly cache: LoaderCache,
    private readonly viewer: Viewer,
  ) {}

  get followersCount(): DataLoader<string, number> {
    return this.cache.once('followersCount', () =>
      counts((ids) => this.follows.countFollowers(ids)),
    );
  }

  get followingCount(): DataLoader<string, number> {
    return this.cache.once('followingCount', () =>
      counts((ids) => this.follows.countFollowing(ids)),
    );
  }

  get followedByViewer(): DataLoader<string, boolean> {
    return this.cache.once('followedByViewer', () =>
      viewerFlags(this.viewer?.id ?? null, (viewerId, ids) =>
        this.follows.followedBy(viewerId, ids),
      ),
    );
  }
}

export function followsLoaders(follows: FollowsService, cache: LoaderCache, viewer: Viewer) {
  return new RequestFollowsLoaders(follows, cache, viewer);
}

export type FollowsLoaders = LoadersOf<RequestFollowsLoaders>;
