import DataLoader from 'dataloader';

import { LikesService } from './likes.service';
import { counts, LoaderCache, LoadersOf, viewerFlags } from '../common/loaders';
import { Viewer } from '../users/viewer';

/** The like loaders of one request: a post's like count, and whether the viewer likes it. */
class RequestLikesLoaders {
  constructor(
    private readonly likes: LikesService,
    private readonly cache: LoaderCache,
    private readonly viewer: Viewer,
  ) {}

  get likesCountByPost(): DataLoader<string, number> {
    return this.cache.once('likesCountByPost', () => counts((ids) => this.likes.countByPosts(ids)));
  }

  get likedByViewer(): DataLoader<string, boolean> {
    return this.cache.once('likedByViewer', () =>
      viewerFlags(this.viewer?.id ?? null, (viewerId, ids) => this.likes.likedBy(viewerId, ids)),
    );
  }
}

export function likesLoaders(likes: LikesService, cache: LoaderCache, viewer: Viewer) {
  return new RequestLikesLoaders(likes, cache, viewer);
}

export type LikesLoaders = LoadersOf<RequestLikesLoaders>;
