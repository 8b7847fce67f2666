import { Inject, Injectable, Logger } from '@nestjs/common';
import { PubSubEngine } from 'graphql-subscriptions';

import { BLOG_PUB_SUB } from './pub-sub';
import { messageOf } from '../common/errors';
import { outsideRequestScope } from '../common/request-scope';

/** Event names on the PubSub; payloads carry ids only, so they survive JSON through Redis. */
export const BlogEvent = {
  PostPublished: 'blog.postPublished',
  CommentAdded: 'blog.commentAdded',
  CommentUpdated: 'blog.commentUpdated',
  PostLikesChanged: 'blog.postLikesChanged',
  NotificationAdded: 'blog.notificationAdded',
} as const;

export interface PostPublishedEvent {
  postId: string;
}
export interface CommentAddedEvent {
  commentId: string;
  postId: string;
}
/** What a removed comment was, for the subscribers that showed it. */
export interface RemovedComment {
  id: string;
  postId: string;
  parentId: string | null;
  inReplyToId: string | null;
  authorId: string;
  /** ISO 8601. */
  createdAt: string;
}
/** A comment edited, hidden, restored or deleted; `removed` when it is gone for good. */
export interface CommentUpdatedEvent {
  commentId: string;
  postId: string;
  removed?: RemovedComment;
}
export interface PostLikesChangedEvent {
  postId: string;
}
/**
 * The followers a chunk of a publication's fan-out notified: ids after `after`, up to `last`
 * (to the end when absent).
 */
export interface FollowerRange {
  after: string;
  last?: string;
}

/**
 * A notification for one recipient; or a chunk of a publication's, whose notifications went to
 * the author's followers in `followers` (all of them when absent): each subscriber finds out
 * whether one of them is theirs.
 */
export type NotificationAddedEvent =
  | { recipientId: string; notificationId: string }
  | { kind: 'FOLLOWEE_PUBLISHED'; actorId: string; postId: string; followers?: FollowerRange };

/** How long a publish may take before it is logged as failed: a bound on any PubSubEngine. */
export const PUBLISH_TIMEOUT_MS = 5000;

/** A publish not answered yet: its event and the time it must answer by. */
interface Waiting {
  readonly trigger: string;
  readonly deadline: number;
}

/**
 * Publishes what happened after it is written, in the background: the mutation neither waits
 * for the publish nor fails with it. The data is already safe; a publish that fails or takes
 * longer than {@link PUBLISH_TIMEOUT_MS} is logged, and only its live update is lost.
 */
@Injectable()
export class BlogEvents {
  private readonly logger = new Logger('BlogEvents');
  /**
   * The publishes not answered yet, oldest first: each waits as long, so deadlines come in the
   * order of insertion. One timer, set for the oldest, bounds them all: a timer per publish
   * cost 2 % of a like's CPU.
   */
  private readonly waiting = new Set<Waiting>();
  private watchdog: NodeJS.Timeout | undefined;

  constructor(@Inject(BLOG_PUB_SUB) private readonly pubSub: PubSubEngine) {}

  postPublished(postId: string): void {
    this.publish(BlogEvent.PostPublished, { postId } satisfies PostPublishedEvent);
  }

  commentAdded(commentId: string, postId: string): void {
    this.publish(BlogEvent.CommentAdded, { commentId, postId } satisfies CommentAddedEvent);
  }

  commentUpdated(commentId: string, postId: string, removed?: RemovedComment): void {
    this.publish(BlogEvent.CommentUpdated, {
      commentId,
      postId,
      ...(removed ? { removed } : {}),
    } satisfies CommentUpdatedEvent);
  }

  postLikesChanged(postId: string): void {
    this.publish(BlogEvent.PostLikesChanged, { postId } satisfies PostLikesChangedEvent);
  }

  notificationAdded(event: NotificationAddedEvent): void {
    this.publish(BlogEvent.NotificationAdded, event);
  }

  private publish(trigger: string, payload: object): void {
    const waiting: Waiting = { trigger, deadline: Date.now() + PUBLISH_TIMEOUT_MS };
    this.waiting.add(waiting);
    this.watch();
    // In a promise chain, so that an engine that throws instead of rejecting is caught too; out
    // of the request's scope, so that a client hanging up after its write stops no delivery.
    outsideRequestScope(() =>
      Promise.resolve().then(() => this.pubSub.publish(trigger, payload)),
    ).then(
      () => void this.waiting.delete(waiting),
      (error: unknown) => {
        // Once logged as timed out, a publish is not logged again.
        if (this.waiting.delete(waiting)) this.failed(trigger, error);
      },
    );
  }

  /** Sets the timer for the oldest publish still waiting, unless it is set or none waits. */
  private watch(): void {
    if (this.watchdog || this.waiting.size === 0) return;
    const oldest = this.waiting.values().next().value!;
    this.watchdog = setTimeout(this.expire, Math.max(0, oldest.deadline - Date.now()));
    this.watchdog.unref();
  }

  /** Logs every publish past its deadline, then watches the next. */
  private readonly expire = (): void => {
    this.watchdog = undefined;
    const now = Date.now();
    for (const waiting of this.waiting) {
      if (waiting.deadline > now) break;
      this.waiting.delete(waiting);
      this.failed(waiting.trigger, new Error(`no answer within ${PUBLISH_TIMEOUT_MS} ms`));
    }
    this.watch();
  };

  private failed(trigger: string, error: unknown): void {
    this.logger.error(
      `Could not publish ${trigger}: ${messageOf(error)}`,
      error instanceof Error ? error.stack : undefined,
    );
  }
}
