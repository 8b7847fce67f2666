import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';

import { NotificationKind } from './notification-kind';
import { Notification } from './notification.entity';
import { toNotification } from './notification.rows';
import { notificationsSql } from './notifications.sql';
import { PublicationFanOut } from './publication-fan-out';
import { notFound, unauthenticated } from '../common/errors';
import { PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { newId } from '../common/uuid';
import { BlogEvents } from '../events/blog-events';
import { Viewer } from '../users/viewer';

/** What an action tells another user: a follow, or a like or comment on one of their posts. */
export type Notice =
  | { kind: NotificationKind.FOLLOWED; recipientId: string; actorId: string }
  | {
      kind: NotificationKind.POST_LIKED;
      recipientId: string;
      actorId: string;
      postId: string;
    }
  | {
      kind: NotificationKind.POST_COMMENTED;
      recipientId: string;
      actorId: string;
      postId: string;
      /** Deleting the comment takes its notification with it. */
      commentId: string;
    }
  | {
      kind: NotificationKind.COMMENT_REPLIED | NotificationKind.COMMENT_LIKED;
      recipientId: string;
      actorId: string;
      postId: string;
      /** The reply, or the comment liked: deleting it takes the notification with it. */
      commentId: string;
    };

/** What a notification needs of a comment. */
export interface CommentRef {
  id: string;
  postId: string;
  authorId: string;
}

const commentLiked = (comment: CommentRef, actorId: string): Notice => ({
  kind: NotificationKind.COMMENT_LIKED,
  recipientId: comment.authorId,
  actorId,
  postId: comment.postId,
  commentId: comment.id,
});

/** What a notification needs of a post. */
export interface PostRef {
  id: string;
  authorId: string;
}

const liked = (post: PostRef, actorId: string): Notice => ({
  kind: NotificationKind.POST_LIKED,
  recipientId: post.authorId,
  actorId,
  postId: post.id,
});

/** How long a live notification of one actor, kind and target is not pushed again. */
export const LIVE_REPEAT_MS = 60_000;

/** The live pushes remembered for {@link LIVE_REPEAT_MS}: a bound on a like/unlike loop's. */
const MAX_REMEMBERED_PUSHES = 10_000;

const followNotice = (followeeId: string, followerId: string): Notice => ({
  kind: NotificationKind.FOLLOWED,
  recipientId: followeeId,
  actorId: followerId,
});

/** A publication, which tells every follower of its author. */
export interface PublicationNotice {
  kind: NotificationKind.FOLLOWEE_PUBLISHED;
  actorId: string;
  postId: string;
}

/** An action's write, run on `sql`; true when it changed something (a new like, a new follow). */
export type ActionWrite = (sql: SqlRunner) => Promise<boolean>;

export interface NotificationsPage {
  notifications: Notification[];
  hasNextPage: boolean;
}

/**
 * Notifications: written with the action that raises them, in its transaction, so an action
 * that fails or changes nothing raises none, and announced live once that has committed. A
 * publication writes one pending row instead, whose followers' notifications
 * {@link PublicationFanOut} writes shortly after, in chunks; a viewer's reads and marks wait a
 * little for it first, never for one that fails. The live deliveries need not: their events
 * follow the commits they announce.
 */
@Injectable()
export class NotificationsService {
  private readonly statements: PreparedStatements<typeof notificationsSql>;
  private readonly recentPushes = new LRUCache<string, true>({
    max: MAX_REMEMBERED_PUSHES,
    ttl: LIVE_REPEAT_MS,
  });

  constructor(
    private readonly sql: Sql,
    private readonly events: BlogEvents,
    private readonly fanOut: PublicationFanOut,
  ) {
    this.statements = sql.prepare(notificationsSql);
  }

  /** Likes `post` (`write`), telling its author. */
  postLiked(post: PostRef, likerId: string, write: ActionWrite): Promise<boolean> {
    return this.raising(liked(post, likerId), write);
  }

  /** Takes back a like of `post` (`write`), and its notification while unread. */
  postUnliked(post: PostRef, likerId: string, write: ActionWrite): Promise<boolean> {
    return this.withdrawing(liked(post, likerId), write);
  }

  /**
   * Adds `comment` to `post` (`write`), telling the post's author and, for a reply, the author
   * of the comment it answers (`answeredAuthorId`): one notification each, the reply's when they
   * are the same person. The notifications go when the comment is deleted.
   */
  commentAdded(
    post: PostRef,
    comment: CommentRef,
    answeredAuthorId: string | null,
    write: ActionWrite,
  ): Promise<boolean> {
    const about = { actorId: comment.authorId, postId: post.id, commentId: comment.id };
    const notices: Notice[] = [];
    if (answeredAuthorId !== null) {
      notices.push({
        kind: NotificationKind.COMMENT_REPLIED,
        recipientId: answeredAuthorId,
        ...about,
      });
    }
    if (answeredAuthorId !== post.authorId) {
      notices.push({ kind: NotificationKind.POST_COMMENTED, recipientId: post.authorId, ...about });
    }
    return this.raisingAll(notices, write);
  }

  /** Likes `comment` (`write`), telling its author. */
  commentLiked(comment: CommentRef, likerId: string, write: ActionWrite): Promise<boolean> {
    return this.raising(commentLiked(comment, likerId), write);
  }

  /** Takes back a like of `comment` (`write`), and its notification while unread. */
  commentUnliked(comment: CommentRef, likerId: string, write: ActionWrite): Promise<boolean> {
    return this.withdrawing(commentLiked(comment, likerId), write);
  }

  /**
   * Deletes a comment or makes it a tombstone (`write`), and removes every notification about
   * it, in one transaction.
   */
  async commentRemoved(commentId: string, write: ActionWrite): Promise<boolean> {
    return this.sql.transaction(async (sql) => {
      if (!(await write(sql))) return false;
      await sql.run(this.statements.withdrawAboutComment, { commentId });
      return true;
    });
  }

  /**
   * Follows `followeeId` (`write`), telling them. A follow, and an unfollow, wait a little for
   * this instance's fan-outs under way (see PublicationFanOut.caughtUp), so that those mostly
   * reach the followers they had.
   */
  async followed(followeeId: string, followerId: string, write: ActionWrite): Promise<boolean> {
    await this.fanOut.caughtUp();
    return this.raising(followNotice(followeeId, followerId), write);
  }

  /** Takes back a follow (`write`), and its notification while unread. */
  async unfollowed(followeeId: string, followerId: string, write: ActionWrite): Promise<boolean> {
    await this.fanOut.caughtUp();
    return this.withdrawing(followNotice(followeeId, followerId), write);
  }

  /** Publishes `post` (`write`: a new published post, or a draft's publication), telling every follower of its author. */
  postPublished(post: PostRef, write: ActionWrite): Promise<boolean> {
    const notice = {
      kind: NotificationKind.FOLLOWEE_PUBLISHED,
      actorId: post.authorId,
      postId: post.id,
    } as const;
    return this.raising(notice, write);
  }

  /**
   * Runs `write` and, when it changed something, the notification of `notice`, in one
   * transaction; returns what `write` returned. None is raised for one's own action, and no
   * second one while the same notification is unread.
   */
  async raising(notice: Notice | PublicationNotice, write: ActionWrite): Promise<boolean> {
    if (notice.kind === NotificationKind.FOLLOWEE_PUBLISHED) return this.publishing(notice, write);
    return this.raisingAll([notice], write);
  }

  /** {@link raising} of several notices, written with `write` in one transaction. */
  private async raisingAll(notices: Notice[], write: ActionWrite): Promise<boolean> {
    const others = notices.filter((notice) => notice.recipientId !== notice.actorId);
    if (others.length === 0) return write(this.sql);
    const notifications = others.map((notice) => ({
      notice,
      row: { id: newId(), postId: null, commentId: null, ...notice, createdAt: new Date() },
      raised: false,
    }));
    const changed = await this.sql.transaction(async (sql) => {
      if (!(await write(sql))) return false;
      for (const notification of notifications) {
        const insert = this.insertOf(notification.notice);
        notification.raised = (await sql.run(insert, notification.row)) > 0;
      }
      return true;
    });
    for (const { notice, row, raised } of notifications) {
      if (raised && this.firstPushInAWhile(notice)) {
        this.events.notificationAdded({ recipientId: notice.recipientId, notificationId: row.id });
      }
    }
    return changed;
  }

  /** Comments and replies are each news; a like or follow is raised once while unread. */
  private insertOf(notice: Notice) {
    const { statements: s } = this;
    switch (notice.kind) {
      case NotificationKind.POST_COMMENTED:
      case NotificationKind.COMMENT_REPLIED:
        return s.insert;
      case NotificationKind.POST_LIKED:
        return s.insertUnlessUnread;
      case NotificationKind.COMMENT_LIKED:
        return s.insertUnlessUnreadComment;
      default:
        return s.insertUnlessUnreadNoPost;
    }
  }

  /**
   * On `sql`, in the transaction of what it tells of: a notification of `kind` to every admin,
   * from `actorId` (the recipient themselves when null). Returns what announces them live, to
   * call once that transaction has committed.
   */
  async toAdmins(
    sql: SqlRunner,
    kind: NotificationKind.WEBHOOK_DISABLED,
    actorId: string | null,
  ): Promise<() => void> {
    const createdAt = new Date();
    const written: { recipientId: string; notificationId: string }[] = [];
    for (const { id: recipientId } of await sql.all(this.statements.admins, {})) {
      const row = { id: newId(), recipientId, actorId: actorId ?? recipientId, kind, createdAt };
      await sql.run(this.statements.insert, { ...row, postId: null, commentId: null });
      written.push({ recipientId, notificationId: row.id });
    }
    return () => written.forEach((added) => this.events.notificationAdded(added));
  }

  /**
   * Runs `write` (an unlike, an unfollow) and, when it changed something, removes the unread
   * notification that the undone action raised, in one transaction; a read one stays.
   */
  async withdrawing(notice: Notice, write: ActionWrite): Promise<boolean> {
    if (notice.recipientId === notice.actorId) return write(this.sql);
    const statement =
      notice.kind === NotificationKind.COMMENT_LIKED
        ? this.statements.withdrawComment
        : 'postId' in notice
          ? this.statements.withdraw
          : this.statements.withdrawNoPost;
    return this.sql.transaction(async (sql) => {
      if (!(await write(sql))) return false;
      await sql.run(statement, notice);
      return true;
    });
  }

  /**
   * Runs `write` (a post taken back to a draft) and, when it changed something, stops the post's
   * pending fan-out and removes the unread notifications about it, in one transaction. The
   * fan-out goes first: on PostgreSQL its delete waits for a chunk under way, whose
   * notifications the second delete then finds.
   */
  async postUnpublished(postId: string, write: ActionWrite): Promise<boolean> {
    return this.sql.transaction(async (sql) => {
      if (!(await write(sql))) return false;
      await sql.run(this.statements.cancelPublication, { postId });
      await sql.run(this.statements.withdrawAboutPost, { postId });
      return true;
    });
  }

  /**
   * On `sql`, inside a transaction that took a post out of sight (moderation hid it): stops its
   * pending fan-out and removes the unread notifications about it, as {@link postUnpublished}.
   */
  async forgetPost(postId: string, sql: SqlRunner): Promise<void> {
    await sql.run(this.statements.cancelPublication, { postId });
    await sql.run(this.statements.withdrawAboutPost, { postId });
  }

  /**
   * True unless the same actor's notification of the same kind and target was pushed live less
   * than {@link LIVE_REPEAT_MS} ago (on this instance): a like/unlike loop stores one
   * notification, and pushes it at most once a minute. Comments are each news.
   */
  private firstPushInAWhile(notice: Notice): boolean {
    if (
      notice.kind === NotificationKind.POST_COMMENTED ||
      notice.kind === NotificationKind.COMMENT_REPLIED
    ) {
      return true;
    }
    const target =
      'commentId' in notice ? notice.commentId : 'postId' in notice ? notice.postId : '';
    const key = `${notice.kind}\0${notice.recipientId}\0${notice.actorId}\0${target}`;
    if (this.recentPushes.has(key)) return false;
    this.recentPushes.set(key, true);
    return true;
  }

  /** How many unread notifications the viewer has (of posts that are drafts now, none). */
  async countUnread(viewer: Viewer): Promise<number> {
    if (!viewer) throw unauthenticated('You must be signed in to see your notifications.');
    await this.fanOut.caughtUp();
    const row = await this.sql.one(this.statements.countUnread, { recipientId: viewer.id });
    return Number(row?.count ?? 0);
  }

  /** A page of the viewer's notifications, newest first, plus whether more follow. */
  async page(
    viewer: Viewer,
    first: number,
    afterId: string | null,
    unreadOnly: boolean,
  ): Promise<NotificationsPage> {
    if (!viewer) throw unauthenticated('You must be signed in to see your notifications.');
    await this.fanOut.caughtUp();
    const { statements: s } = this;
    const parameters = { recipientId: viewer.id, first: first + 1 };
    const rows =
      afterId === null
        ? await this.sql.all(unreadOnly ? s.unreadPage : s.page, parameters)
        : await this.sql.all(unreadOnly ? s.unreadPageAfter : s.pageAfter, {
            ...parameters,
            afterId,
          });
    return {
      notifications: rows.slice(0, first).map(toNotification),
      hasNextPage: rows.length > first,
    };
  }

  /**
   * Marks the viewer's unread notifications read: all of them, or those up to `upTo` (that one
   * and older). Returns how many it marked. An `upTo` that is not one of the viewer's
   * notifications is NOT_FOUND, as another user's is, and nothing is marked.
   */
  async markRead(viewer: Viewer, upTo: string | null): Promise<number> {
    if (!viewer) throw unauthenticated('You must be signed in to mark your notifications.');
    await this.fanOut.caughtUp();
    const recipientId = viewer.id;
    const readAt = new Date();
    if (upTo === null) return this.sql.run(this.statements.markAllRead, { recipientId, readAt });
    if (!(await this.sql.one(this.statements.ownedById, { id: upTo, recipientId }))) {
      throw notFound('Notification');
    }
    return this.sql.run(this.statements.markReadUpTo, { recipientId, readAt, upTo });
  }

  /** Notifications by id, of posts that are not drafts now; for the live updates. */
  async findByIds(ids: readonly string[]): Promise<Notification[]> {
    return (await this.sql.all(this.statements.byIds, { ids })).map(toNotification);
  }

  /** The notifications a publication raised for those of `recipientIds` who follow its author. */
  async findOfPublication(
    publication: Omit<PublicationNotice, 'kind'>,
    recipientIds: readonly string[],
  ): Promise<Notification[]> {
    const rows = await this.sql.all(this.statements.ofPublication, {
      ...publication,
      recipientIds,
    });
    return rows.map(toNotification);
  }

  /**
   * The publication and its pending row in one transaction; its followers' notifications
   * follow shortly, in {@link PublicationFanOut}'s own.
   */
  private async publishing(notice: PublicationNotice, write: ActionWrite): Promise<boolean> {
    const createdAt = new Date();
    const changed = await this.sql.transaction(async (sql) => {
      if (!(await write(sql))) return false;
      await this.fanOut.enqueue(sql, notice, createdAt);
      return true;
    });
    if (changed) this.fanOut.published();
    return changed;
  }
}
