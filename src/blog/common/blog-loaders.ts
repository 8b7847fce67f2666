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
 */
export class BlogLoaders {
  readonly userById: DataLoader<string, User | null>;
  readonly postById: DataLoader<string, Post | null>;
  readonly postsByAuthor: PagedLoaders<Post>;
  readonly postsCountByAuthor: DataLoader<string, number>;
  readonly commentById: DataLoader<string, Comment | null>;
  readonly commentsByPost: PagedLoaders<Comment>;
  readonly commentsCountByPost: DataLoader<string, number>;
  readonly likesCountByPost: DataLoader<string, number>;
  readonly likedByViewer: DataLoader<string, boolean>;
  readonly followersCount: DataLoader<string, number>;
  readonly followingCount: DataLoader<string, number>;
  readonly followedByViewer: DataLoader<string, boolean>;

  constructor(services: BlogLoadersFactory, viewer: Viewer) {
    const { users, posts, comments, likes, follows } = services;
    this.userById = new DataLoader(async (ids) =>
      byKeys(ids, await users.findByIds(ids), (u) => u.id),
    );
    this.postById = new DataLoader(async (ids) =>
      byKeys(ids, await posts.findByIds(ids), (p) => p.id),
    );
    this.postsByAuthor = new PagedLoaders((ids, page) => posts.listByAuthors(ids, page));
    this.postsCountByAuthor = counts((ids) => posts.countPublishedByAuthors(ids));
    this.commentById = new DataLoader(async (ids) =>
      byKeys(ids, await comments.findByIds(ids), (c) => c.id),
    );
    this.commentsByPost = new PagedLoaders((ids, page) => comments.listByPosts(ids, page));
    this.commentsCountByPost = counts((ids) => comments.countByPosts(ids));
    this.likesCountByPost = counts((ids) => likes.countByPosts(ids));
    this.likedByViewer = viewerFlags(viewer, (viewerId, ids) => likes.likedBy(viewerId, ids));
    this.followersCount = counts((ids) => follows.countFollowers(ids));
    this.followingCount = counts((ids) => follows.countFollowing(ids));
    this.followedByViewer = viewerFlags(viewer, (viewerId, ids) =>
      follows.followedBy(viewerId, ids),
    );
    if (viewer) this.userById.prime(viewer.id, viewer);
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
