import { Args, Context, ID, Resolver, Subscription } from '@nestjs/graphql';

import { CurrentViewer } from '../auth/viewer.decorator';
import { BlogContext } from '../blog-context';
import { BlogResolverEnhancers } from '../blog-resolver.decorator';
import { SubscriptionFanOut } from './event-fan-out';
import { EventScope } from './event-scope';
import { CommentStatus } from '../comments/comment-status';
import { seesComment, shownTo } from '../comments/comment-visibility';
import { Comment } from '../comments/comment.entity';
import {
  BlogEvent,
  CommentAddedEvent,
  CommentUpdatedEvent,
  PostLikesChangedEvent,
  PostPublishedEvent,
} from '../events/blog-events';
import { Post } from '../posts/post.entity';
import { canSee, PostsService } from '../posts/posts.service';
import { Viewer } from '../users/viewer';

type PostArgs = { postId: string };

/**
 * The comment of each comment event, as its filter read it once for every subscriber: the
 * resolver answers from it, so that a comment deleted since is not read again as missing.
 */
const commentOfEvent = new WeakMap<object, Comment>();

/** Reads the comment of `event` once for all its subscribers (see commentOfEvent). */
async function eventComment(
  fanOut: SubscriptionFanOut,
  event: CommentAddedEvent | CommentUpdatedEvent,
): Promise<Comment | null> {
  const comment = await fanOut.scopeOf(event).loaders.commentById.load(event.commentId);
  if (comment) commentOfEvent.set(event, comment);
  return comment;
}

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
      const seen = await this.commentEvent(event, args, context);
      return (
        seen !== null && seen.comment != null && seesComment(seen.comment, context.viewer ?? null)
      );
    },
    resolve: (event: CommentAddedEvent) => commentOfEvent.get(event),
  })
  async commentAdded(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
    @Context() context: BlogContext,
  ) {
    await this.posts.findPublished(postId, viewer);
    return this.fanOut.listen(BlogEvent.CommentAdded, context);
  }

  @Subscription(() => Comment, {
    description:
      "Every change to a comment of one published post: an edit, a like's count aside; a hide or restore; a deletion (status DELETED, without text or author). A comment hidden from the viewer comes without its text.",
    async filter(
      this: SubscriptionsResolver,
      event: CommentUpdatedEvent,
      args: PostArgs,
      context: BlogContext,
    ) {
      const seen = await this.commentEvent(event, args, context);
      return seen !== null && (seen.comment != null || event.removed !== undefined);
    },
    resolve: (event: CommentUpdatedEvent, _: unknown, context: BlogContext) => {
      const comment = commentOfEvent.get(event);
      if (comment) return shownTo(comment, context.viewer ?? null);
      const removed = event.removed!;
      return Object.assign(new Comment(), {
        ...removed,
        createdAt: new Date(removed.createdAt),
        text: '',
        textHtml: '',
        status: CommentStatus.DELETED,
        editedAt: null,
        likesCount: 0,
      });
    },
  })
  async commentUpdated(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
    @Context() context: BlogContext,
  ) {
    await this.posts.findPublished(postId, viewer);
    return this.fanOut.listen(BlogEvent.CommentUpdated, context);
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
   * A comment event on the post `args` names, for a viewer who sees that post: its comment, read
   * once for every subscriber (null when it is gone); null when the event is not theirs.
   */
  private async commentEvent(
    event: CommentAddedEvent | CommentUpdatedEvent,
    args: PostArgs,
    context: BlogContext,
  ): Promise<{ comment: Comment | null } | null> {
    if (event.postId !== args.postId) return null;
    const [sees, comment] = await Promise.all([
      this.seesPost(event, event.postId, context),
      eventComment(this.fanOut, event),
    ]);
    return sees ? { comment } : null;
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
