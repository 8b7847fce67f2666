import { Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import { Post } from '../posts/post.entity';
import { PostsService } from '../posts/posts.service';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Page, pageKey } from './pagination';

/** Orders `rows` as `keys`, with null where a key has no row: the contract of a DataLoader batch. */
export function byKeys<T>(
  keys: readonly string[],
  rows: T[],
  keyOf: (row: T) => string,
): (T | null)[] {
  const index = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => index.get(key) ?? null);
}

/**
 * The loaders of one request. Each answers many parents with one grouped statement, and caches
 * by key for the rest of the request.
 */
export class BlogLoaders {
  constructor(
    private readonly users: UsersService,
    private readonly posts: PostsService,
  ) {}

  readonly userById = new DataLoader<string, User | null>(async (ids) =>
    byKeys(ids, await this.users.findByIds(ids), (user) => user.id),
  );

  readonly postById = new DataLoader<string, Post | null>(async (ids) =>
    byKeys(ids, await this.posts.findByIds(ids), (post) => post.id),
  );

  readonly postsCountByAuthor = new DataLoader<string, number>(async (ids) => {
    const counts = await this.posts.countPublishedByAuthors(ids);
    return ids.map((id) => counts.get(id) ?? 0);
  });

  private readonly postsByAuthorPages = new Map<string, DataLoader<string, Post[]>>();

  /** Published posts per author; one loader per distinct page, shared by all parents. */
  postsByAuthor(page: Page): DataLoader<string, Post[]> {
    const key = pageKey(page);
    let loader = this.postsByAuthorPages.get(key);
    if (!loader) {
      loader = new DataLoader(async (ids) => {
        const pages = await this.posts.listByAuthors(ids, page);
        return ids.map((id) => pages.get(id) ?? []);
      });
      this.postsByAuthorPages.set(key, loader);
    }
    return loader;
  }
}

/** Makes a fresh set of loaders for each request. */
@Injectable()
export class BlogLoadersFactory {
  constructor(
    private readonly users: UsersService,
    private readonly posts: PostsService,
  ) {}

  create(): BlogLoaders {
    return new BlogLoaders(this.users, this.posts);
  }
}
