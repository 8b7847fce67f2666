import DataLoader from 'dataloader';
import { byKeys, counts, LoaderCache, PagedLoaders } from '../common/loaders';
import { Post } from './post.entity';
import { PostsService } from './posts.service';

/** The post loaders of one request: posts by id, an author's page of posts, and their count. */
export function postsLoaders(posts: PostsService, cache: LoaderCache) {
  return {
    get postById(): DataLoader<string, Post | null> {
      return cache.once(
        'postById',
        () =>
          new DataLoader<string, Post | null>(async (ids) =>
            byKeys(ids, await posts.findByIds(ids), (p) => p.id),
          ),
      );
    },

    get postsByAuthor(): PagedLoaders<Post> {
      return cache.once(
        'postsByAuthor',
        () => new PagedLoaders((ids, page) => posts.listByAuthors(ids, page)),
      );
    },

    get postsCountByAuthor(): DataLoader<string, number> {
      return cache.once('postsCountByAuthor', () =>
        counts((ids) => posts.countPublishedByAuthors(ids)),
      );
    },
  };
}

export type PostsLoaders = ReturnType<typeof postsLoaders>;
