import { BLOG_FEATURE_NAMES, BlogFeatureSwitches } from '../blog-feature';

/** Every feature with its switch: on unless the host set it to `false`. */
export type ResolvedFeatureSwitches = Required<BlogFeatureSwitches>;

/**
 * The switches a host passed, each feature on unless set to `false`. A name that is no feature,
 * or a switch that is not a boolean, throws: a misspelt `serach: false` would otherwise leave
 * the feature on.
 */
export function resolveBlogFeatures(switches: BlogFeatureSwitches = {}): ResolvedFeatureSwitches {
  const known: readonly string[] = BLOG_FEATURE_NAMES;
  for (const [name, value] of Object.entries(switches)) {
    if (!known.includes(name)) {
      throw new Error(
        `BlogModule features: "${name}" is not a feature; the features are ${known.join(', ')}`,
      );
    }
    if (value !== undefined && typeof value !== 'boolean') {
      throw new Error(`BlogModule features: ${name} must be true or false, got ${String(value)}`);
    }
  }
  return {
    search: switches.search !== false,
    tags: switches.tags !== false,
    notifications: switches.notifications !== false,
    bookmarks: switches.bookmarks !== false,
  };
}
