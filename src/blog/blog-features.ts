import { BlogFeature } from './blog-feature';

/** Every optional feature, in the order their providers are registered. */
export const blogFeatures: BlogFeature[] = [];
