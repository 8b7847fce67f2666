import { Args, Context, ID, Resolver, Subscription } from '@nestjs/graphql';

import { CurrentViewer } from '../auth/viewer.decorator';
import { BlogContext } from '../blog-context';
import { BlogResolverEnhancers } from '../blog-resolver.decorator';
import { SubscriptionFanOut } from './event-fan-out';
import { EventScope } from './event-scope';
import { Comment } from '../comments/comment.entity';
import {
  BlogEvent,
  CommentAddedEvent,
  PostLikesChangedEvent,
  PostPublishedEvent,
} from '../events/blog-events';
import { Post } from '../posts/post.entity';
import { canSee, PostsService } from '../posts/posts.service';
import { Viewer } from '../users/viewer';

type PostArgs = { postId: string };

/**
 * Live updates. Events carry ids: the filter re-reads each subscriber's viewer (one statement
 * for all the event's subscribers), reads the row once per event, and drops what that viewer may
 * not see; the resolver then answers from the event's loaders for that viewer, so an event shows
 * what a query would show them.
 */
@Resolver()
@BlogResolverEnhancers()
export class SubscriptionsResolver {
  constructor(
    private readonly posts: PostsService,
    private readonly fanOut: SubscriptionFanOut,
  ) {}

  @Subscription(() => Post, {
    description: 'Every post as it is published.',
    filter(
      this: SubscriptionsResolver,
      event: PostPublishedEvent,
      _: unknown,
      context: BlogContext,
    ) {
      return this.seesPost(event, event.postId, context);
    },
    resolve: (event: PostPublishedEvent, _: unknown, context: BlogContext) =>
      context.loaders?.postById.load(event.postId),
  })
  postCreated(@Context() context: BlogContext) {
    return this.fanOut.listen(BlogEvent.PostPublished, context);
  }

  @Subscription(() => Comment, {
    description: 'Every new comment on one published post.',
    async filter(
      this: SubscriptionsResolver,
      event: CommentAddedEvent,
      args: PostArgs,
      context: BlogContext,
    ) {
      if (event.postId !== args.postId) return false;
      const [sees, comment] = await Promise.all([
        this.seesPost(event, event.postId, context),
        this.fanOut.scopeOf(event).loaders.commentById.load(event.commentId),
      ]);
      return sees && comment != null;
    },
    resolve: (event: CommentAddedEvent, _: unknown, context: BlogContext) =>
      context.loaders?.commentById.load(event.commentId),
  })
  async commentAdded(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
    @Context() context: BlogContext,
  ) {
    await this.posts.findPublished(postId, viewer);
    return this.fanOut.listen(BlogEvent.CommentAdded, context);
  }

  @Subscription(() => Post, {
    description: 'The post, each time its likes change.',
    filter(
      this: SubscriptionsResolver,
      event: PostLikesChangedEvent,
      args: PostArgs,
      context: BlogContext,
    ) {
      return event.postId === args.postId && this.seesPost(event, event.postId, context);
    },
    resolve: (event: PostLikesChangedEvent, _: unknown, context: BlogContext) =>
      context.loaders?.postById.load(event.postId),
  })
  async postLikesChanged(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
    @Context() context: BlogContext,
  ) {
    await this.posts.findPublished(postId, viewer);
    return this.fanOut.listen(BlogEvent.PostLikesChanged, context);
  }

  /**
   * Starts the event with the viewer re-read (the socket closes if their token expired or
   * their account is gone; one statement for all the event's subscribers) and the event's
   * loaders for them, and tells whether they may see the post (read once for the event).
   */
  private async seesPost(event: object, postId: string, context: BlogContext): Promise<boolean> {
    const scope: EventScope = this.fanOut.scopeOf(event);
    const [current, post] = await Promise.all([
      scope.refresh(context),
      scope.loaders.postById.load(postId),
    ]);
    if (!current) return false;
    const viewer: Viewer = context.viewer ?? null;
    context.loaders = scope.loadersFor(viewer);
    return post !== null && canSee(post, viewer);
  }
}
