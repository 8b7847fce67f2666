import DataLoader from 'dataloader';

import { LikesService } from './likes.service';
import { counts, LoaderCache, viewerFlags } from '../common/loaders';
import { Viewer } from '../users/viewer';

/** The like loaders of one request: a post's like count, and whether the viewer likes it. */
export function likesLoaders(likes: LikesService, cache: LoaderCache, viewer: Viewer) {
  return {
    get likesCountByPost(): DataLoader<string, number> {
      return cache.once('likesCountByPost', () => counts((ids) => likes.countByPosts(ids)));
    },

    get likedByViewer(): DataLoader<string, boolean> {
      return cache.once('likedByViewer', () =>
        viewerFlags(viewer?.id ?? null, (viewerId, ids) => likes.likedBy(viewerId, ids)),
      );
    },
  };
}

export type LikesLoaders = ReturnType<typeof likesLoaders>;
