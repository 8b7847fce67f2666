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
  FollowsLoaders & { clear(): void };

/** Makes a fresh set of loaders for each request. */
@Injectable()
export class BlogLoadersFactory {
  constructor(
    private readonly users: UsersService,
    private readonly posts: PostsService,
    private readonly comments: CommentsService,
    private readonly likes: LikesService,
    private readonly follows: FollowsService,
  ) {}

  create(viewer: Viewer): BlogLoaders {
    const cache = new LoaderCache();
    const features = [
      usersLoaders(this.users, cache, viewer),
      postsLoaders(this.posts, cache),
      commentsLoaders(this.comments, cache),
      likesLoaders(this.likes, cache, viewer),
      followsLoaders(this.follows, cache, viewer),
    ];
    // The features' getters are copied as getters, not read: a loader is still made on first use.
    const loaders = { clear: () => cache.clear() };
    for (const feature of features)
      Object.defineProperties(loaders, Object.getOwnPropertyDescriptors(feature));
    return loaders as BlogLoaders;
  }
}
