import { BlogFeature } from './blog-feature';
import { bookmarksFeature } from './bookmarks/bookmarks.feature';

/** Every optional feature, in the order their providers are registered. */
export const blogFeatures: BlogFeature[] = [bookmarksFeature];
