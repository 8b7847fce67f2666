import { Inject, Injectable, Logger } from '@nestjs/common';
import { PubSubEngine } from 'graphql-subscriptions';
import { BLOG_PUB_SUB } from './pub-sub';

/** Event names on the PubSub; payloads carry ids only, so they survive JSON through Redis. */
export const BlogEvent = {
  PostPublished: 'blog.postPublished',
  CommentAdded: 'blog.commentAdded',
  PostLikesChanged: 'blog.postLikesChanged',
} as const;

export interface PostPublishedEvent {
  postId: string;
}
export interface CommentAddedEvent {
  commentId: string;
  postId: string;
}
export interface PostLikesChangedEvent {
  postId: string;
}

/**
 * Publishes what happened after it is written. A failed publish is logged and does not fail
 * the mutation: the data is already safe, only the live update is lost.
 */
@Injectable()
export class BlogEvents {
  private readonly logger = new Logger('BlogEvents');

  constructor(@Inject(BLOG_PUB_SUB) private readonly pubSub: PubSubEngine) {}

  postPublished(postId: string): Promise<void> {
    return this.publish(BlogEvent.PostPublished, { postId } satisfies PostPublishedEvent);
  }

  commentAdded(commentId: string, postId: string): Promise<void> {
    return this.publish(BlogEvent.CommentAdded, { commentId, postId } satisfies CommentAddedEvent);
  }

  postLikesChanged(postId: string): Promise<void> {
    return this.publish(BlogEvent.PostLikesChanged, { postId } satisfies PostLikesChangedEvent);
  }

  private async publish(trigger: string, payload: object): Promise<void> {
    try {
      await this.pubSub.publish(trigger, payload);
    } catch (error) {
      this.logger.error(
        `Could not publish ${trigger}`,
        error instanceof Error ? error.stack : error,
      );
    }
  }
}
