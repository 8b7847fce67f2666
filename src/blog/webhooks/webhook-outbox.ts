import { Injectable, Optional } from '@nestjs/common';

import { WebhookEvent } from './webhook-event';
import {
  commentData,
  CommentFacts,
  payloadOf,
  PostFacts,
  publishedPostData,
  removedPostData,
  scheduledPostData,
  UserFacts,
  userData,
} from './webhook-payloads';
import { webhookDeliveriesSql } from './webhooks.sql';
import { PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { newId } from '../common/uuid';
import { idPrefixAt } from '../notifications/publication-fan-out';
import { PostUrls } from '../posts/post-urls';
import { toPost } from '../posts/post.rows';

/** A new message id: the `webhook-id` of every attempt of one event, to every webhook. */
export const newMessageId = (): string => `msg_${newId()}`;

/**
 * The webhooks' outbox: each event is written, as the first attempt for each enabled webhook
 * that subscribes to it, on the runner of the transaction that makes the change it tells of. So
 * an event is delivered exactly when its change commits, even if the process dies right after;
 * a change rolled back takes its event with it. Without subscribers it costs one statement and
 * writes nothing. The delivery worker (WebhookDispatcher) sends from it.
 */
@Injectable()
export class WebhookOutbox {
  private readonly statements: PreparedStatements<typeof webhookDeliveriesSql>;
  private readonly listeners: (() => void)[] = [];

  constructor(
    sql: Sql,
    @Optional() private readonly urls?: PostUrls,
  ) {
    this.statements = sql.prepare(webhookDeliveriesSql);
  }

  /** Calls `listener` once each write of attempts has committed. */
  onEnqueued(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * Writes `event` with `data` for its subscribers, on `sql`; returns how many it wrote. The
   * payload's `timestamp` is `occurredAt` (a publication's time, say); the retries' 24 hours run
   * from now.
   */
  async enqueue(
    sql: SqlRunner,
    event: WebhookEvent,
    data: object,
    occurredAt?: Date,
  ): Promise<number> {
    const now = new Date();
    const written = await sql.run(this.statements.enqueue, {
      idPrefix: idPrefixAt(now),
      messageId: newMessageId(),
      event,
      token: `,${event},`,
      payload: payloadOf(event, occurredAt ?? now, data),
      now,
    });
    if (written > 0) {
      sql.afterCommit(() => {
        for (const listener of this.listeners) listener();
      });
    }
    return written;
  }

  /**
   * `post.published`: a draft published, a post created published, a schedule come due, or a
   * post that moderation hid shown again (at `at`, its old publication time kept).
   */
  postPublished(sql: SqlRunner, post: PostFacts, at?: Date): Promise<number> {
    const data = publishedPostData(post, this.urlOf(post));
    return this.enqueue(
      sql,
      WebhookEvent.POST_PUBLISHED,
      data,
      at ?? post.publishedAt ?? new Date(),
    );
  }

  /** `post.updated`: a published post edited; a draft's edits tell no one. */
  async postUpdated(sql: SqlRunner, post: PostFacts): Promise<number> {
    if (post.publishedAt === null) return 0;
    const data = publishedPostData(post, this.urlOf(post));
    return this.enqueue(sql, WebhookEvent.POST_UPDATED, data, post.updatedAt);
  }

  /**
   * `post.unpublished`: a published post (as it was) taken back to a draft at `at`, by its author
   * or an editor, or hidden by moderation.
   */
  postUnpublished(sql: SqlRunner, post: PostFacts, at: Date): Promise<number> {
    const data = removedPostData(post, this.urlOf(post), at);
    return this.enqueue(sql, WebhookEvent.POST_UNPUBLISHED, data, at);
  }

  /** `post.deleted`: a published or scheduled post (as it was) deleted; a draft's deletion tells no one. */
  async postDeleted(sql: SqlRunner, post: PostFacts, at: Date): Promise<number> {
    if (post.publishedAt === null && !post.scheduledAt) return 0;
    const data = removedPostData(post, this.urlOf(post), at);
    return this.enqueue(sql, WebhookEvent.POST_DELETED, data, at);
  }

  /**
   * `post.deleted` for each published or scheduled post of `authorId`, on `sql`: the transaction
   * that deletes their account, which takes the posts with it. Returns how many it wrote.
   */
  async authorDeleted(sql: SqlRunner, authorId: string, at: Date): Promise<number> {
    let written = 0;
    for (const row of await sql.all(this.statements.toldPostsOf, { authorId })) {
      written += await this.postDeleted(sql, toPost(row), at);
    }
    return written;
  }

  /** `post.scheduled`: a draft set to publish itself at `scheduledAt`. */
  postScheduled(sql: SqlRunner, post: PostFacts, scheduledAt: Date, at: Date): Promise<number> {
    return this.enqueue(sql, WebhookEvent.POST_SCHEDULED, scheduledPostData(post, scheduledAt), at);
  }

  /** `comment.created`: a published comment; one held for review tells no one. */
  commentCreated(sql: SqlRunner, comment: CommentFacts): Promise<number> {
    return this.enqueue(sql, WebhookEvent.COMMENT_CREATED, commentData(comment), comment.createdAt);
  }

  /** `user.created`: a new account. */
  userCreated(sql: SqlRunner, user: UserFacts): Promise<number> {
    return this.enqueue(sql, WebhookEvent.USER_CREATED, userData(user), user.createdAt);
  }

  private urlOf(post: PostFacts): string | null {
    return post.slug ? (this.urls?.of(post) ?? null) : null;
  }
}
