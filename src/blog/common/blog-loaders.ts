import { Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import { Comment } from '../comments/comment.entity';
import { CommentsService } from '../comments/comments.service';
import { FollowsService } from '../follows/follows.service';
import { LikesService } from '../likes/likes.service';
import { Post } from '../posts/post.entity';
import { PostsService } from '../posts/posts.service';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Viewer } from './blog-context';
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

const counts = (load: (keys: readonly string[]) => Promise<Map<string, number>>) =>
  new DataLoader<string, number>(async (keys) => {
    const found = await load(keys);
    return keys.map((key) => found.get(key) ?? 0);
  });

/** A yes/no per key for the viewer; false for everyone when anonymous, without a statement. */
const viewerFlags = (
  viewer: Viewer,
  load: (viewerId: string, keys: readonly string[]) => Promise<Set<string>>,
) =>
  new DataLoader<string, boolean>(async (keys) => {
    if (!viewer) return keys.map(() => false);
    const yes = await load(viewer.id, keys);
    return keys.map((key) => yes.has(key));
  });

/** One DataLoader per distinct page argument, shared by every parent that asks for that page. */
class PagedLoaders<T> {
  private readonly loaders = new Map<string, DataLoader<string, T[]>>();

  constructor(
    private readonly load: (keys: readonly string[], page: Page) => Promise<Map<string, T[]>>,
  ) {}

  for(page: Page): DataLoader<string, T[]> {
    const key = pageKey(page);
    let loader = this.loaders.get(key);
    if (!loader) {
      loader = new DataLoader(async (keys) => {
        const pages = await this.load(keys, page);
        return keys.map((id) => pages.get(id) ?? []);
      });
      this.loaders.set(key, loader);
    }
    return loader;
  }
}

/**
 * The loaders of one request. Each answers many parents with one grouped statement and caches
 * by key for the rest of the request, so statements do not grow with the number of parents.
 * A loader is made the first time a field asks for it: most requests need two or three.
 */
export class BlogLoaders {
  private readonly made = new Map<string, unknown>();
  /** The viewer's row is known when the request starts, until a mutation may change it. */
  private viewerPrimed = true;

  constructor(
    private readonly services: BlogLoadersFactory,
    private readonly viewer: Viewer,
  ) {}

  get userById(): DataLoader<string, User | null> {
    return this.once('userById', () => {
      const loader = new DataLoader<string, User | null>(async (ids) =>
        byKeys(ids, await this.services.users.findByIds(ids), (u) => u.id),
      );
      if (this.viewer && this.viewerPrimed) loader.prime(this.viewer.id, this.viewer);
      return loader;
    });
  }

  get postById(): DataLoader<string, Post | null> {
    return this.once(
      'postById',
      () =>
        new DataLoader(async (ids) =>
          byKeys(ids, await this.services.posts.findByIds(ids), (p) => p.id),
        ),
    );
  }

  get postsByAuthor(): PagedLoaders<Post> {
    return this.once(
      'postsByAuthor',
      () => new PagedLoaders((ids, page) => this.services.posts.listByAuthors(ids, page)),
    );
  }

  get postsCountByAuthor(): DataLoader<string, number> {
    return this.once('postsCountByAuthor', () =>
      counts((ids) => this.services.posts.countPublishedByAuthors(ids)),
    );
  }

  get commentById(): DataLoader<string, Comment | null> {
    return this.once(
      'commentById',
      () =>
        new DataLoader(async (ids) =>
          byKeys(ids, await this.services.comments.findByIds(ids), (c) => c.id),
        ),
    );
  }

  get commentsByPost(): PagedLoaders<Comment> {
    return this.once(
      'commentsByPost',
      () => new PagedLoaders((ids, page) => this.services.comments.listByPosts(ids, page)),
    );
  }

  get commentsCountByPost(): DataLoader<string, number> {
    return this.once('commentsCountByPost', () =>
      counts((ids) => this.services.comments.countByPosts(ids)),
    );
  }

  get likesCountByPost(): DataLoader<string, number> {
    return this.once('likesCountByPost', () =>
      counts((ids) => this.services.likes.countByPosts(ids)),
    );
  }

  get likedByViewer(): DataLoader<string, boolean> {
    return this.once('likedByViewer', () =>
      viewerFlags(this.viewer, (viewerId, ids) => this.services.likes.likedBy(viewerId, ids)),
    );
  }

  get followersCount(): DataLoader<string, number> {
    return this.once('followersCount', () =>
      counts((ids) => this.services.follows.countFollowers(ids)),
    );
  }

  get followingCount(): DataLoader<string, number> {
    return this.once('followingCount', () =>
      counts((ids) => this.services.follows.countFollowing(ids)),
    );
  }

  get followedByViewer(): DataLoader<string, boolean> {
    return this.once('followedByViewer', () =>
      viewerFlags(this.viewer, (viewerId, ids) => this.services.follows.followedBy(viewerId, ids)),
    );
  }

  /**
   * Forgets everything read so far, after a mutation: later fields of the operation read the
   * database again. The viewer is not primed again, since the mutation may have changed its row.
   */
  clear(): void {
    this.made.clear();
    this.viewerPrimed = false;
  }

  private once<T>(name: string, make: () => T): T {
    let loader = this.made.get(name) as T | undefined;
    if (loader === undefined) {
      loader = make();
      this.made.set(name, loader);
    }
    return loader;
  }
}

/** Makes a fresh set of loaders for each request. */
@Injectable()
export class BlogLoadersFactory {
  constructor(
    readonly users: UsersService,
    readonly posts: PostsService,
    readonly comments: CommentsService,
    readonly likes: LikesService,
    readonly follows: FollowsService,
  ) {}

  create(viewer: Viewer): BlogLoaders {
    return new BlogLoaders(this, viewer);
  }
}
