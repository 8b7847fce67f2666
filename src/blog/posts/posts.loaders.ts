import DataLoader from 'dataloader';

import { Post } from './post.entity';
import { PostBody, PostsService } from './posts.service';
import { byKeys, counts, LoaderCache, LoadersOf, PagedLoaders } from '../common/loaders';

/**
 * The lists of posts a request has read whose posts postById does not know yet: primed when
 * postById is next used, so that a request that never loads a post by id (most lists) primes none.
 */
const unprimed = (cache: LoaderCache) => cache.once('unprimedPosts', (): Post[][] => []);

/**
 * The post loaders of one request: posts by id, an author's page of posts, and their count.
 * Every page of posts read, by a list or by an author's page, primes the posts by id.
 */
class RequestPostsLoaders {
  constructor(
    private readonly posts: PostsService,
    private readonly cache: LoaderCache,
  ) {}

  get postById(): DataLoader<string, Post | null> {
    const loader = this.cache.once(
      'postById',
      () =>
        new DataLoader<string, Post | null>(async (ids) =>
          byKeys(ids, await this.posts.findByIds(ids), (p) => p.id),
        ),
    );
    const lists = unprimed(this.cache);
    for (const list of lists) for (const post of list) loader.prime(post.id, post);
    lists.length = 0;
    return loader;
  }

  get postsByAuthor(): PagedLoaders<Post> {
    return this.cache.once(
      'postsByAuthor',
      () =>
        new PagedLoaders(async (ids, page) => {
          const pages = await this.posts.listByAuthors(ids, page);
          for (const list of pages.values()) this.knownPosts(list);
          return pages;
        }),
    );
  }

  /**
   * An author's page of posts read without their content, for a selection that reads none of it
   * (see PostsService.listByAuthors). These posts prime no other loader: a post loaded by id in
   * the same request may need its content.
   */
  get postSummariesByAuthor(): PagedLoaders<Post> {
    return this.cache.once(
      'postSummariesByAuthor',
      () =>
        new PagedLoaders((ids, page) => this.posts.listByAuthors(ids, page, { content: false })),
    );
  }

  /** Each post's rendered content (HTML, text, headings), read only when a field asks for it. */
  get postBodies(): DataLoader<string, PostBody> {
    return this.cache.once(
      'postBodies',
      () =>
        new DataLoader<string, PostBody>(async (ids) => {
          const bodies = await this.posts.bodiesOf(ids);
          return ids.map((id) => bodies.get(id) ?? { html: '', text: '', toc: [] });
        }),
    );
  }

  /** The slugs each post had before its current one, newest first. */
  get previousSlugs(): DataLoader<Post, string[], string> {
    return this.cache.once(
      'previousSlugs',
      () =>
        new DataLoader<Post, string[], string>(
          async (posts) => {
            const slugs = await this.posts.previousSlugsOf(posts);
            return posts.map((post) => slugs.get(post.id) ?? []);
          },
          { cacheKeyFn: (post) => post.id },
        ),
    );
  }

  get postsCountByAuthor(): DataLoader<string, number> {
    return this.cache.once('postsCountByAuthor', () =>
      counts((ids) => this.posts.countPublishedByAuthors(ids)),
    );
  }

  /**
   * Hands back `list` after remembering its posts by id, so that loading one of them again
   * (a comment's post, say) costs no statement.
   */
  knownPosts(list: Post[]): Post[] {
    unprimed(this.cache).push(list);
    return list;
  }
}

export function postsLoaders(posts: PostsService, cache: LoaderCache) {
  return new RequestPostsLoaders(posts, cache);
}

export type PostsLoaders = LoadersOf<RequestPostsLoaders>;
