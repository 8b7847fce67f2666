import { BlogFeature } from './blog-feature';
import { bookmarksFeature } from './bookmarks/bookmarks.feature';
import { notificationsFeature } from './notifications/notifications.feature';
import { searchFeature } from './search/search.feature';
import { tagsFeature } from './tags/tags.feature';

/** Every optional feature, in the order their providers are registered. */
export const blogFeatures: BlogFeature[] = [
  bookmarksFeature,
  tagsFeature,
  notificationsFeature,
  searchFeature,
];
