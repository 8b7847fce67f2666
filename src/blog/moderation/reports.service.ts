import { Inject, Injectable } from '@nestjs/common';

import { ModerationAction, ModerationTargetType } from './moderation-action';
import { ModerationLogService } from './moderation-log.service';
import { ReportTargetType } from './moderation-queue-item.entity';
import { reportsSql } from './moderation-queue.sql';
import { ReportReason } from './reports.enums';
import type { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { CommentStatus } from '../comments/comment-status';
import { seesComment } from '../comments/comment-visibility';
import { CommentsService } from '../comments/comments.service';
import { badUserInput, notFound, tooManyRequests, unauthenticated } from '../common/errors';
import { PreparedStatements, Sql, SqlRunner, toDate } from '../common/sql';
import { isUuid, newId } from '../common/uuid';
import { PostsService } from '../posts/posts.service';
import { Viewer } from '../users/viewer';

/** The default of `moderation.reportsPerHour`: reports one user may file an hour. */
export const DEFAULT_REPORTS_PER_HOUR = 10;
/** The default of `moderation.autoHideReports`: distinct reporters that hide a target. */
export const DEFAULT_AUTO_HIDE_REPORTS = 5;

const HOUR_MS = 3_600_000;

/** What a report is about, once found visible to the reporter. */
interface Target {
  type: ReportTargetType;
  id: string;
  postId: string;
  authorId: string;
  /** Whether the auto-hide rule may hide it: a published post, or a published comment. */
  shown: boolean;
  /** A title, or a comment's words, for the moderation log. */
  summary: string;
}

/** What a reporter says. */
interface Complaint {
  reason: ReportReason;
  note: string | null;
}

/**
 * Reports of posts and comments by signed-in readers: one per reporter and target, at most
 * `moderation.reportsPerHour` an hour per reporter (counted in the database, so on every
 * instance), grouped by target into the moderation queue. A post or a published comment reported
 * by `moderation.autoHideReports` distinct readers is hidden, in the report's transaction, until
 * a moderator decides.
 */
@Injectable()
export class ReportsService {
  private readonly statements: PreparedStatements<typeof reportsSql>;
  private readonly perHour: number;
  private readonly autoHideAfter: number;

  constructor(
    private readonly sql: Sql,
    private readonly posts: PostsService,
    private readonly comments: CommentsService,
    private readonly log: ModerationLogService,
    @Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions,
  ) {
    this.statements = sql.prepare(reportsSql);
    this.perHour = options.moderation?.reportsPerHour ?? DEFAULT_REPORTS_PER_HOUR;
    this.autoHideAfter = options.moderation?.autoHideReports ?? DEFAULT_AUTO_HIDE_REPORTS;
  }

  /** Reports a published post the viewer sees; reporting it again changes nothing. */
  async reportPost(
    postId: string,
    reason: ReportReason,
    note: string | null,
    viewer: Viewer,
  ): Promise<boolean> {
    if (!viewer) throw unauthenticated('You must be signed in to report a post.');
    const post = isUuid(postId) ? await this.posts.findVisible(postId.toLowerCase(), viewer) : null;
    if (!post) throw notFound('Post');
    if (post.authorId === viewer.id)
      throw badUserInput('You cannot report your own post.', 'postId');
    if (post.publishedAt === null) throw notFound('Post');
    const target: Target = {
      type: ModerationTargetType.POST,
      id: post.id,
      postId: post.id,
      authorId: post.authorId,
      shown: true,
      summary: post.title,
    };
    return this.file(target, { reason, note }, viewer.id);
  }

  /** Reports a comment the viewer sees, on a published post; reporting it again changes nothing. */
  async reportComment(
    commentId: string,
    reason: ReportReason,
    note: string | null,
    viewer: Viewer,
  ): Promise<boolean> {
    if (!viewer) throw unauthenticated('You must be signed in to report a comment.');
    const [comment] = isUuid(commentId)
      ? await this.comments.findByIds([commentId.toLowerCase()])
      : [];
    if (!comment || !seesComment(comment, viewer)) throw notFound('Comment');
    if (comment.authorId === viewer.id) {
      throw badUserInput('You cannot report your own comment.', 'commentId');
    }
    const post = await this.posts.findVisible(comment.postId, viewer);
    if (!post || post.publishedAt === null) throw notFound('Comment');
    const target: Target = {
      type: ModerationTargetType.COMMENT,
      id: comment.id,
      postId: comment.postId,
      authorId: comment.authorId,
      shown: comment.status === CommentStatus.PUBLISHED,
      summary: comment.text,
    };
    return this.file(target, { reason, note }, viewer.id);
  }

  /**
   * Files the report in the target's open item (opened by the first report), unless the reporter
   * reported the target before; past the hourly allowance, TOO_MANY_REQUESTS and nothing filed.
   */
  private file(target: Target, complaint: Complaint, reporterId: string): Promise<boolean> {
    return this.sql.transaction(async (sql) => {
      const s = this.statements;
      const names = { targetType: target.type, targetId: target.id };
      await sql.one(s.lockReporter, { id: reporterId });
      if (await sql.one(s.reported, { ...names, reporterId })) return true;
      const now = new Date();
      await this.checkAllowance(sql, reporterId, now);
      await sql.run(s.openItem, { ...names, id: newId(), postId: target.postId, createdAt: now });
      const item = await sql.one(s.openItemOf, names);
      if (!item) throw new Error(`No open moderation item for ${target.type} ${target.id}`);
      await sql.run(s.insert, {
        ...names,
        ...complaint,
        id: newId(),
        itemId: item.id,
        reporterId,
        createdAt: now,
      });
      await this.autoHide(sql, target, item.id);
      return true;
    });
  }

  /** TOO_MANY_REQUESTS, with the seconds until a report leaves the hour, past the allowance. */
  private async checkAllowance(sql: SqlRunner, reporterId: string, now: Date): Promise<void> {
    if (this.perHour === 0) return;
    const since = new Date(now.getTime() - HOUR_MS);
    const recent = await sql.one(this.statements.recent, { reporterId, since });
    if (Number(recent?.count ?? 0) < this.perHour) return;
    const oldest = toDate(recent?.oldest ?? null) ?? now;
    const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000));
    throw tooManyRequests(
      `You may file ${this.perHour} reports an hour; try again in ${retryAfter} s.`,
      retryAfter,
    );
  }

  /** Hides the target once enough distinct readers have reported it, and logs it with no actor. */
  private async autoHide(sql: SqlRunner, target: Target, itemId: string): Promise<void> {
    if (this.autoHideAfter === 0 || !target.shown) return;
    const reporters = Number((await sql.one(this.statements.reporters, { itemId }))?.count ?? 0);
    if (reporters < this.autoHideAfter) return;
    const post = target.type === ModerationTargetType.POST;
    const hidden = post
      ? await this.posts.setHiddenByModeration(target.id, true, sql)
      : (await this.comments.setHidden(target.id, true, sql))?.status === CommentStatus.HIDDEN;
    if (!hidden) return;
    await this.log.record(
      {
        actorId: null,
        action: post ? ModerationAction.HIDE_POST : ModerationAction.HIDE_COMMENT,
        targetType: target.type,
        targetId: target.id,
        reason: `auto-hidden after ${reporters} reports`,
        summary: target.summary,
      },
      sql,
    );
  }
}
