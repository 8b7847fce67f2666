import { BookmarksResolver } from './bookmarks.resolver';
import { BookmarksService } from './bookmarks.service';
import { BlogFeature } from '../blog-feature';

/** Bookmarks: a signed-in user's private list of published posts to read later. */
export const bookmarksFeature: BlogFeature = {
  name: 'bookmarks',
  providers: [BookmarksService, BookmarksResolver],
  schema: {
    fields: [
      'Mutation.bookmarkPost',
      'Mutation.unbookmarkPost',
      'Post.isBookmarkedByMe',
      'Query.myBookmarks',
    ],
  },
};
