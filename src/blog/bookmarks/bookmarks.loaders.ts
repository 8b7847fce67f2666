import DataLoader from 'dataloader';

import { BookmarksService } from './bookmarks.service';
import { BlogLoaders } from '../blog-loaders';
import { viewerFlags } from '../common/loaders';

/**
 * Whether the viewer has bookmarked a post, for every post the request reads, in one statement;
 * false for everyone when anonymous, without a statement.
 */
export function bookmarkedByViewer(
  loaders: BlogLoaders,
  bookmarks: BookmarksService,
): DataLoader<string, boolean> {
  return loaders.featureLoader('bookmarkedByViewer', (viewer) =>
    viewerFlags(viewer?.id ?? null, (viewerId, ids) => bookmarks.bookmarkedBy(viewerId, ids)),
  );
}
