import { Provider } from '@nestjs/common';

/** The optional features, by the names `BlogModuleOptions.features` switches them with. */
export const BLOG_FEATURE_NAMES = ['search', 'tags', 'notifications', 'bookmarks'] as const;

/** The optional features a host can leave out through `BlogModuleOptions.features`. */
export type BlogFeatureName = (typeof BLOG_FEATURE_NAMES)[number];

/** Which optional features BlogModule serves: each is on unless set to `false`. */
export type BlogFeatureSwitches = { [name in BlogFeatureName]?: boolean };

/**
 * One optional feature: the providers (resolvers, services) registered only with it, and the
 * schema coordinates that exist only with it, so that leaving it out removes them from the schema.
 */
export interface BlogFeature {
  name: BlogFeatureName;
  providers: Provider[];
  schema: {
    /** Named types that exist only with the feature: `Tag`, `NotificationKind`. */
    types?: string[];
    /** Fields of object and input types: `Query.searchPosts`, `Post.tags`, `CreatePostInput.tags`. */
    fields?: string[];
    /** Arguments of fields: `Query.posts(tags:)`. */
    arguments?: string[];
  };
}
