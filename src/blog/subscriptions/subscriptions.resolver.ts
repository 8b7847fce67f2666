import { Inject } from '@nestjs/common';
import { Args, ID, Resolver, Subscription } from '@nestjs/graphql';
import { PubSubEngine } from 'graphql-subscriptions';
import { CurrentViewer } from '../auth/viewer.decorator';
import { BlogContext } from '../blog-context';
import { BlogLoaders, BlogLoadersFactory } from '../blog-loaders';
import { BlogResolverEnhancers } from '../blog-resolver.decorator';
import { Comment } from '../comments/comment.entity';
import {
  BlogEvent,
  CommentAddedEvent,
  PostLikesChangedEvent,
  PostPublishedEvent,
} from '../events/blog-events';
import { BLOG_PUB_SUB } from '../events/pub-sub';
import { Post } from '../posts/post.entity';
import { canSee, PostsService } from '../posts/posts.service';
import { Viewer } from '../users/viewer';

type PostArgs = { postId: string };

/**
 * Live updates. Events carry ids: for each event and subscriber, the filter reads the row
 * afresh with new loaders and drops what that viewer may not see; the resolver then answers
 * from those loaders, so an event shows what a query would show that viewer.
 */
@Resolver()
@BlogResolverEnhancers()
export class SubscriptionsResolver {
  constructor(
    @Inject(BLOG_PUB_SUB) private readonly pubSub: PubSubEngine,
    private readonly posts: PostsService,
    private readonly loaders: BlogLoadersFactory,
  ) {}

  @Subscription(() => Post, {
    description: 'Every post as it is published.',
    filter(
      this: SubscriptionsResolver,
      event: PostPublishedEvent,
      _: unknown,
      context: BlogContext,
    ) {
      return this.seesPost(event.postId, context);
    },
    resolve: (event: PostPublishedEvent, _: unknown, context: BlogContext) =>
      context.loaders?.postById.load(event.postId),
  })
  postCreated() {
    return this.pubSub.asyncIterableIterator(BlogEvent.PostPublished);
  }

  @Subscription(() => Comment, {
    description: 'Every new comment on one published post.',
    async filter(
      this: SubscriptionsResolver,
      event: CommentAddedEvent,
      args: PostArgs,
      context: BlogContext,
    ) {
      if (event.postId !== args.postId || !(await this.seesPost(event.postId, context)))
        return false;
      return (await context.loaders?.commentById.load(event.commentId)) != null;
    },
    resolve: (event: CommentAddedEvent, _: unknown, context: BlogContext) =>
      context.loaders?.commentById.load(event.commentId),
  })
  async commentAdded(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
  ) {
    await this.posts.findPublished(postId, viewer);
    return this.pubSub.asyncIterableIterator(BlogEvent.CommentAdded);
  }

  @Subscription(() => Post, {
    description: 'The post, each time its likes change.',
    filter(
      this: SubscriptionsResolver,
      event: PostLikesChangedEvent,
      args: PostArgs,
      context: BlogContext,
    ) {
      return event.postId === args.postId && this.seesPost(event.postId, context);
    },
    resolve: (event: PostLikesChangedEvent, _: unknown, context: BlogContext) =>
      context.loaders?.postById.load(event.postId),
  })
  async postLikesChanged(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
  ) {
    await this.posts.findPublished(postId, viewer);
    return this.pubSub.asyncIterableIterator(BlogEvent.PostLikesChanged);
  }

  /**
   * Starts the event with the viewer re-read (the socket closes if their token expired or
   * their account is gone) and fresh loaders, and tells whether they may see the post.
   */
  private async seesPost(postId: string, context: BlogContext): Promise<boolean> {
    if (context.refreshViewer && !(await context.refreshViewer())) return false;
    const loaders: BlogLoaders = this.loaders.create(context.viewer ?? null);
    context.loaders = loaders;
    const post = await loaders.postById.load(postId);
    return post !== null && canSee(post, context.viewer ?? null);
  }
}
