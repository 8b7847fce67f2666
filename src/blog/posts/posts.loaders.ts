import DataLoader from 'dataloader';

import { Post } from './post.entity';
import { PostsService } from './posts.service';
import { byKeys, counts, LoaderCache, PagedLoaders } from '../common/loaders';

/**
 * The post loaders of one request: posts by id, an author's page of posts, and their count.
 * Every page of posts read, by a list or by an author's page, primes the posts by id.
 */
export function postsLoaders(posts: PostsService, cache: LoaderCache) {
  const postById = () =>
    cache.once(
      'postById',
      () =>
        new DataLoader<string, Post | null>(async (ids) =>
          byKeys(ids, await posts.findByIds(ids), (p) => p.id),
        ),
    );
  const knownPosts = (list: Post[]): Post[] => {
    const loader = postById();
    for (const post of list) loader.prime(post.id, post);
    return list;
  };

  return {
    get postById(): DataLoader<string, Post | null> {
      return postById();
    },

    get postsByAuthor(): PagedLoaders<Post> {
      return cache.once(
        'postsByAuthor',
        () =>
          new PagedLoaders(async (ids, page) => {
            const pages = await posts.listByAuthors(ids, page);
            for (const list of pages.values()) knownPosts(list);
            return pages;
          }),
      );
    },

    get postsCountByAuthor(): DataLoader<string, number> {
      return cache.once('postsCountByAuthor', () =>
        counts((ids) => posts.countPublishedByAuthors(ids)),
      );
    },

    /**
     * Hands back `list` after remembering its posts by id, so that loading one of them again
     * (a comment's post, say) costs no statement.
     */
    knownPosts,
  };
}

export type PostsLoaders = ReturnType<typeof postsLoaders>;
