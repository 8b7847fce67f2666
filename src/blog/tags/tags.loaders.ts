import DataLoader from 'dataloader';

import { TagsService } from './tags.service';
import { BlogLoaders } from '../blog-loaders';
import { counts, PagedLoaders } from '../common/loaders';
import { Post } from '../posts/post.entity';

/**
 * The tag loaders of one request: each post's tags, each tag's count of published posts and its
 * page of them; each answers every parent of the request with one statement. The posts of a
 * tag's page are remembered by id, like every other page of posts.
 */
export function tagsLoaders(loaders: BlogLoaders, tags: TagsService) {
  return loaders.featureLoader('tags', () => ({
    tagsByPost: new DataLoader<string, string[]>(async (ids) => {
      const found = await tags.tagsOfPosts(ids);
      return ids.map((id) => found.get(id) ?? []);
    }),
    postsCountByTag: counts((slugs) => tags.countPublishedByTags(slugs)),
    postsByTag: new PagedLoaders<Post>(async (slugs, page) => {
      const pages = await tags.listByTags(slugs, page);
      for (const list of pages.values()) loaders.knownPosts(list);
      return pages;
    }),
  }));
}

export type TagsLoaders = ReturnType<typeof tagsLoaders>;
