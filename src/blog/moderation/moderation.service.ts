import { Injectable } from '@nestjs/common';

import { ModerationAction, ModerationTargetType } from './moderation-action';
import { ModerationLogService } from './moderation-log.service';
import { Comment } from '../comments/comment.entity';
import { CommentsService } from '../comments/comments.service';
import { badUserInput, forbidden, notFound, unauthenticated } from '../common/errors';
import { Sql } from '../common/sql';
import { Post } from '../posts/post.entity';
import { PostsService } from '../posts/posts.service';
import { refuseForbiddenBan } from '../users/bans';
import { isModerator, moderatorOf } from '../users/roles';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Viewer } from '../users/viewer';

/** The words of a comment a log entry keeps. */
const summaryOf = (comment: Comment) => comment.text;

/**
 * The moderators' own actions: hiding and restoring comments, locking a post's comments, and
 * banning users. Moderators are editors and admins; a post's author may lock its comments too.
 * Each action is logged in its own transaction (see ModerationLogService).
 */
@Injectable()
export class ModerationService {
  constructor(
    private readonly sql: Sql,
    private readonly log: ModerationLogService,
    private readonly comments: CommentsService,
    private readonly posts: PostsService,
    private readonly users: UsersService,
  ) {}

  /** Hides a comment (`hidden`) or shows a hidden or held one again: moderators only. */
  async setCommentHidden(id: string, hidden: boolean, viewer: Viewer): Promise<Comment> {
    const moderator = moderatorOf(viewer, hidden ? 'hide comments' : 'restore comments');
    const found = (await this.comments.findByIds([id.toLowerCase()]))[0];
    if (!found || !(await this.posts.findVisible(found.postId, viewer))) throw notFound('Comment');
    if (found.status === 'deleted') throw notFound('Comment');
    return this.sql.transaction(async (sql) => {
      const comment = (await this.comments.setHidden(found.id, hidden, sql)) ?? found;
      await this.log.record(
        {
          actorId: moderator.id,
          action: hidden ? ModerationAction.HIDE_COMMENT : ModerationAction.RESTORE_COMMENT,
          targetType: ModerationTargetType.COMMENT,
          targetId: comment.id,
          summary: summaryOf(comment),
        },
        sql,
      );
      return comment;
    });
  }

  /** Locks or unlocks a post's comments: its author, or a moderator. */
  async lockComments(postId: string, locked: boolean, viewer: Viewer): Promise<Post> {
    if (!viewer) throw unauthenticated('You must be signed in to lock comments.');
    const post = await this.posts.findVisible(postId, viewer);
    if (!post) throw notFound('Post');
    if (post.authorId !== viewer.id && !isModerator(viewer)) {
      throw forbidden("Only the post's author or a moderator may lock its comments.");
    }
    const at = locked ? new Date() : null;
    await this.sql.transaction(async (sql) => {
      await this.posts.setCommentsLocked(post.id, locked, sql);
      await this.log.record(
        {
          actorId: viewer.id,
          action: locked ? ModerationAction.LOCK_COMMENTS : ModerationAction.UNLOCK_COMMENTS,
          targetType: ModerationTargetType.POST,
          targetId: post.id,
          summary: post.title,
        },
        sql,
      );
    });
    return Object.assign(post, { commentsLockedAt: at });
  }

  /**
   * Bans a user from writing until `until` (null: for good): moderators only. Nobody bans
   * themself or an admin, and only admins ban editors.
   */
  async ban(userId: string, reason: string, until: Date | null, viewer: Viewer): Promise<User> {
    const moderator = moderatorOf(viewer, 'ban users');
    if (until && until.getTime() <= Date.now()) {
      throw badUserInput('until must be in the future.', 'until');
    }
    const user = await this.target(userId, moderator);
    await this.sql.transaction(async (sql) => {
      await this.users.ban(user.id, reason, until, sql);
      await this.log.record(
        {
          actorId: moderator.id,
          action: ModerationAction.BAN_USER,
          targetType: ModerationTargetType.USER,
          targetId: user.id,
          reason,
          summary: user.handle,
        },
        sql,
      );
    });
    return (await this.users.findById(user.id)) ?? user;
  }

  /** Lifts a ban: moderators only, as for banning. */
  async unban(userId: string, viewer: Viewer): Promise<User> {
    const moderator = moderatorOf(viewer, 'unban users');
    const user = await this.target(userId, moderator);
    await this.sql.transaction(async (sql) => {
      if (!(await this.users.unban(user.id, sql))) return;
      await this.log.record(
        {
          actorId: moderator.id,
          action: ModerationAction.UNBAN_USER,
          targetType: ModerationTargetType.USER,
          targetId: user.id,
          summary: user.handle,
        },
        sql,
      );
    });
    return (await this.users.findById(user.id)) ?? user;
  }

  /** The user `moderator` bans or unbans, within the rules of refuseForbiddenBan. */
  private async target(userId: string, moderator: User): Promise<User> {
    const user = await this.users.findById(userId.toLowerCase());
    if (!user) throw notFound('User');
    refuseForbiddenBan(user, moderator, 'userId');
    return user;
  }
}
