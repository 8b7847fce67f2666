import type { GraphQLResolveInfo } from 'graphql';

import type { BlogLoaders } from '../blog-loaders';
import { Post } from './post.entity';
import { Page } from '../common/pagination';
import { Viewer } from '../users/viewer';

/**
 * Reads a post, its author and the first page of a list its selection asks for in one
 * statement, and leaves the author and the page in the request's loaders, where the post's
 * fields, each resolved on its own, find them. The comments feature provides it, for the
 * post's comments.
 */
export abstract class PostDetailReader {
  /** The page that the `post` field of `info` reads beside the post; null when it reads none. */
  abstract pageOf(info: GraphQLResolveInfo): Page | null;

  /** The post when `viewer` may see it, else null; only then are its author and page kept. */
  abstract read(id: string, page: Page, viewer: Viewer, loaders: BlogLoaders): Promise<Post | null>;
}
