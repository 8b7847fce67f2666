import { Injectable } from '@nestjs/common';

import { CommentsLoaders, commentsLoaders } from './comments/comments.loaders';
import { CommentsService } from './comments/comments.service';
import { LoaderCache } from './common/loaders';
import { FollowsLoaders, followsLoaders } from './follows/follows.loaders';
import { FollowsService } from './follows/follows.service';
import { LikesLoaders, likesLoaders } from './likes/likes.loaders';
import { LikesService } from './likes/likes.service';
import { PostsLoaders, postsLoaders } from './posts/posts.loaders';
import { PostsService } from './posts/posts.service';
import { UsersLoaders, usersLoaders } from './users/users.loaders';
import { UsersService } from './users/users.service';
import { Viewer } from './users/viewer';

/**
 * The loaders of one request: every feature's, side by side. Each answers many parents with one
 * grouped statement and caches by key for the rest of the request, so statements do not grow
 * with the number of parents. `clear()` forgets everything read so far, after a mutation.
 */
export type BlogLoaders = UsersLoaders &
  PostsLoaders &
  CommentsLoaders &
  LikesLoaders &
  FollowsLoaders & {
    clear(): void;
    /**
     * What the mutation being resolved knows of its own write, as `prime` puts it into the
     * loaders made fresh after it (see BlogMutation), so that its selection reads it without a
     * statement: say, `() => loaders.likedByViewer.prime(post.id, true)` after a like. Call it
     * from a BlogMutation handler once its write has succeeded: `prime` runs once, at the next
     * clear().
     */
    primeAfterClear(prime: () => void): void;
    /**
     * A loader of an optional feature, which this composition does not know: made with the
     * request's viewer the first time `name` is asked for, and forgotten by clear() like the rest.
     */
    featureLoader<T>(name: string, make: (viewer: Viewer) => T): T;
  };

interface FeatureServices {
  users: UsersService;
  posts: PostsService;
  comments: CommentsService;
  likes: LikesService;
  follows: FollowsService;
}

type Feature = (services: FeatureServices, cache: LoaderCache, viewer: Viewer) => object;

/**
 * The features whose answers depend on who asks (`isLikedByMe`, `isFollowedByMe`, the comments
 * hidden from all but their authors and moderators).
 */
const likes: Feature = ({ likes }, cache, viewer) => likesLoaders(likes, cache, viewer);
const follows: Feature = ({ follows }, cache, viewer) => followsLoaders(follows, cache, viewer);
const comments: Feature = ({ comments }, cache, viewer) => commentsLoaders(comments, cache, viewer);

/** Each feature's loaders, as the feature makes them. */
const FEATURES: Feature[] = [
  ({ users }, cache, viewer) => usersLoaders(users, cache, viewer),
  ({ posts }, cache) => postsLoaders(posts, cache),
  comments,
  likes,
  follows,
];

const BY_VIEWER: ReadonlySet<Feature> = new Set([likes, follows, comments]);

/**
 * One request's loaders. A feature's loaders are made the first time one of them is used; the
 * getters and methods that reach them are defined once, on the prototype, so that a request
 * pays for one small object rather than for copying every feature's properties.
 */
class RequestLoaders {
  private readonly made: object[] = [];

  constructor(
    private readonly services: FeatureServices,
    private readonly cache: LoaderCache,
    private readonly viewer: Viewer,
    private readonly base?: RequestLoaders,
  ) {}

  feature(index: number): Record<string, unknown> {
    this.made[index] ??=
      this.base && !BY_VIEWER.has(FEATURES[index])
        ? this.base.feature(index)
        : FEATURES[index](this.services, this.cache, this.viewer);
    return this.made[index] as Record<string, unknown>;
  }

  clear(): void {
    this.cache.clear();
  }

  primeAfterClear(prime: () => void): void {
    this.cache.primeAfterClear(prime);
  }

  featureLoader<T>(name: string, make: (viewer: Viewer) => T): T {
    return this.cache.once(`feature:${name}`, () => make(this.viewer));
  }
}

FEATURES.forEach((make, index) => {
  // A throw-away instance names the feature's loaders (the getters and methods of its class);
  // none of its getters is read.
  const sample = make({} as FeatureServices, new LoaderCache(), null);
  const members = Object.getOwnPropertyDescriptors(Object.getPrototypeOf(sample));
  for (const [name, { get }] of Object.entries(members)) {
    if (name === 'constructor') continue;
    if (name in RequestLoaders.prototype) throw new Error(`Two features name a loader ${name}`);
    Object.defineProperty(
      RequestLoaders.prototype,
      name,
      get
        ? {
            get(this: RequestLoaders) {
              return this.feature(index)[name];
            },
          }
        : {
            value(this: RequestLoaders, ...args: unknown[]) {
              return (this.feature(index)[name] as (...args: unknown[]) => unknown)(...args);
            },
          },
    );
  }
});

/** Makes a fresh set of loaders for each request. */
@Injectable()
export class BlogLoadersFactory {
  private readonly services: FeatureServices;

  constructor(
    users: UsersService,
    posts: PostsService,
    comments: CommentsService,
    likes: LikesService,
    follows: FollowsService,
  ) {
    this.services = { users, posts, comments, likes, follows };
  }

  /**
   * `shareWith` (loaders made for no viewer) lends its loaders of what no viewer changes, so that
   * the viewers of one subscription event read those rows once between them.
   */
  create(viewer: Viewer, shareWith?: BlogLoaders): BlogLoaders {
    return new RequestLoaders(
      this.services,
      new LoaderCache(),
      viewer,
      shareWith as unknown as RequestLoaders | undefined,
    ) as unknown as BlogLoaders;
  }
}
