import { Injectable } from '@nestjs/common';

import { ModerationAction, ModerationTargetType } from './moderation-action';
import { ModerationLogService, ModerationRecord } from './moderation-log.service';
import { QueueCursor } from './moderation-queue-cursor';
import { ModerationItem } from './moderation-queue-item.entity';
import { moderationQueueSql } from './moderation-queue.sql';
import { Report } from './reports.entity';
import { REPORT_REASONS, ReportAction, ReportReason, ReportStatus } from './reports.enums';
import { toModerationItem, toReport } from './reports.rows';
import { CommentStatus } from '../comments/comment-status';
import { Comment } from '../comments/comment.entity';
import { CommentsService } from '../comments/comments.service';
import { conflict, notFound } from '../common/errors';
import { groupBy } from '../common/group-by';
import { Page } from '../common/pagination';
import { PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { isUuid } from '../common/uuid';
import { Post } from '../posts/post.entity';
import { PostsService } from '../posts/posts.service';
import { refuseForbiddenBan } from '../users/bans';
import { moderatorOf } from '../users/roles';
import { UsersService } from '../users/users.service';
import { Viewer } from '../users/viewer';

/** The reports of an item, counted: how many, and the reasons given, in the enum's order. */
export interface ReportSummary {
  reports: number;
  reasons: ReportReason[];
}

/** A resolved item, with its target: for a deleted one, what it was (see {@link deleted}). */
export interface Resolution {
  item: ModerationItem;
  target: Post | Comment;
  summary: ReportSummary;
}

/** What one resolution works on. */
interface Case {
  item: ModerationItem;
  target: Post | Comment;
  summary: ReportSummary;
  moderator: NonNullable<Viewer>;
  at: Date;
}

const NO_REPORTS: ReportSummary = { reports: 0, reasons: [] };

/**
 * The moderation queue, for editors and admins: reports grouped by target into items, and their
 * resolution. Each resolution is written with its action and its moderation log entries in one
 * transaction, but for deleting a comment, which CommentsService does in a transaction of its
 * own just before.
 */
@Injectable()
export class ModerationQueueService {
  private readonly statements: PreparedStatements<typeof moderationQueueSql>;

  constructor(
    private readonly sql: Sql,
    private readonly posts: PostsService,
    private readonly comments: CommentsService,
    private readonly users: UsersService,
    private readonly log: ModerationLogService,
  ) {
    this.statements = sql.prepare(moderationQueueSql);
  }

  /**
   * A page of the items of `status` whose target is still there (one more than `first`, to tell
   * whether another page follows): open ones oldest first, resolved ones newest resolved first.
   */
  async page(
    viewer: Viewer,
    status: ReportStatus,
    first: number,
    after: QueueCursor | null,
  ): Promise<ModerationItem[]> {
    moderatorOf(viewer, 'read the moderation queue');
    if (first === 0) return [];
    const s = this.statements;
    const limit = { first: first + 1 };
    const rows =
      status === ReportStatus.OPEN
        ? after
          ? await this.sql.all(s.openPageAfter, { ...limit, afterId: after.id })
          : await this.sql.all(s.openPage, limit)
        : after
          ? await this.sql.all(s.resolvedPageAfter, {
              ...limit,
              afterId: after.id,
              afterAt: after.resolvedAt ?? new Date(0),
            })
          : await this.sql.all(s.resolvedPage, limit);
    return rows.map(toModerationItem);
  }

  /** The items of `status` whose target is still there. */
  async count(status: ReportStatus): Promise<number> {
    const s = this.statements;
    const statement = status === ReportStatus.OPEN ? s.countOpen : s.countResolved;
    return Number((await this.sql.one(statement, {}))?.count ?? 0);
  }

  /** How many reports each item has, and their reasons; in one statement. */
  async summaries(ids: readonly string[]): Promise<Map<string, ReportSummary>> {
    const summaries = new Map(ids.map((id) => [id, { reports: 0, reasons: [] as ReportReason[] }]));
    for (const row of await this.sql.all(this.statements.reasons, { ids })) {
      const summary = summaries.get(row.key);
      if (!summary) continue;
      summary.reports += Number(row.count);
      summary.reasons.push(row.reason as ReportReason);
    }
    for (const summary of summaries.values()) {
      summary.reasons.sort((a, b) => REPORT_REASONS.indexOf(a) - REPORT_REASONS.indexOf(b));
    }
    return summaries;
  }

  /** A page of each item's reports, oldest first; in one statement. */
  async reportsOf(itemIds: readonly string[], page: Page): Promise<Map<string, Report[]>> {
    if (page.first === 0 || itemIds.length === 0) return groupBy(itemIds, [], () => '');
    const rows = page.after
      ? await this.sql.all(this.statements.reportsOfAfter, {
          keys: itemIds,
          first: page.first,
          after: page.after,
        })
      : await this.sql.all(this.statements.reportsOf, { keys: itemIds, first: page.first });
    return groupBy(itemIds, rows.map(toReport), (report) => report.itemId);
  }

  /**
   * Resolves an open item with `action`, as an editor or an admin: NOT_FOUND for no such item
   * (or one whose target is gone), CONFLICT once it is resolved. Records the action, who and
   * when, and logs what was done.
   */
  async resolve(id: string, action: ReportAction, viewer: Viewer): Promise<Resolution> {
    const moderator = moderatorOf(viewer, 'resolve reports');
    const row = isUuid(id)
      ? await this.sql.one(this.statements.byId, { id: id.toLowerCase() })
      : null;
    const item = row && toModerationItem(row);
    if (!item) throw notFound('Moderation item');
    if (item.status !== ReportStatus.OPEN) throw alreadyResolved();
    const target = await this.targetOf(item);
    if (!target) throw notFound('Moderation item');
    const summary = (await this.summaries([item.id])).get(item.id) ?? NO_REPORTS;
    const resolution: Case = { item, target, summary, moderator, at: new Date() };
    switch (action) {
      case ReportAction.DISMISS:
        await this.resolving(resolution, action, (sql) => this.dismiss(resolution, sql));
        break;
      case ReportAction.HIDE:
        await this.resolving(resolution, action, (sql) => this.hide(resolution, sql));
        break;
      case ReportAction.DELETE:
        await this.delete(resolution);
        break;
      case ReportAction.BAN_AUTHOR:
        await this.banAuthor(resolution);
        break;
    }
    Object.assign(item, {
      status: ReportStatus.RESOLVED,
      action,
      resolvedById: moderator.id,
      resolvedAt: resolution.at,
    });
    return { item, target: action === ReportAction.DELETE ? deleted(target) : target, summary };
  }

  private async targetOf(item: ModerationItem): Promise<Post | Comment | null> {
    const [target] =
      item.targetType === ModerationTargetType.POST
        ? await this.posts.findByIds([item.targetId])
        : await this.comments.findByIds([item.targetId]);
    return target ?? null;
  }

  /** Resolves the item and runs `act` in one transaction; CONFLICT when another resolved it first. */
  private resolving(
    { item, moderator, at }: Case,
    action: ReportAction,
    act: (sql: SqlRunner) => Promise<void>,
  ): Promise<void> {
    return this.sql.transaction(async (sql) => {
      const resolved = { id: item.id, action, resolvedBy: moderator.id, at };
      if ((await sql.run(this.statements.resolve, resolved)) === 0) throw alreadyResolved();
      await act(sql);
    });
  }

  /** Nothing wrong: a target hidden (by the reports, or a moderator) is shown again. */
  private async dismiss(resolution: Case, sql: SqlRunner): Promise<void> {
    const { target } = resolution;
    await this.record(resolution, ModerationAction.DISMISS_REPORTS, sql);
    if (target instanceof Comment) {
      if (target.status !== CommentStatus.HIDDEN) return;
      await this.comments.setHidden(target.id, false, sql);
      await this.record(resolution, ModerationAction.RESTORE_COMMENT, sql);
    } else if (await this.posts.setHiddenByModeration(target.id, false, sql)) {
      await this.record(resolution, ModerationAction.RESTORE_POST, sql);
    }
  }

  /** Hides the target from everyone but its author and moderators. */
  private async hide(resolution: Case, sql: SqlRunner): Promise<void> {
    const { target } = resolution;
    if (target instanceof Comment) {
      await this.comments.setHidden(target.id, true, sql);
      await this.record(resolution, ModerationAction.HIDE_COMMENT, sql);
    } else {
      await this.posts.setHiddenByModeration(target.id, true, sql);
      await this.record(resolution, ModerationAction.HIDE_POST, sql);
    }
  }

  /**
   * Deletes the target. A post goes in the resolution's transaction, its items and their
   * reports with it. A comment is deleted first (a tombstone when it has replies), in
   * CommentsService's own transaction; the resolution follows, and is logged even when another
   * moderator resolved the item in between, since the comment is gone either way.
   */
  private async delete(resolution: Case): Promise<void> {
    const { target, item, moderator, at } = resolution;
    if (!(target instanceof Comment)) {
      await this.resolving(resolution, ReportAction.DELETE, async (sql) => {
        await this.record(resolution, ModerationAction.DELETE_POST, sql);
        await this.posts.deleteByModeration(target.id, sql);
      });
      return;
    }
    if (target.status !== CommentStatus.DELETED) await this.comments.delete(target.id, moderator);
    await this.sql.transaction(async (sql) => {
      const resolved = { id: item.id, action: ReportAction.DELETE, resolvedBy: moderator.id, at };
      await sql.run(this.statements.resolve, resolved);
      await this.record(resolution, ModerationAction.DELETE_COMMENT, sql);
    });
  }

  /**
   * Bans the target's author from writing, for good, naming the reports' reasons, and hides the
   * target. As with banUser: nobody bans themself or an admin, and only admins ban editors.
   */
  private async banAuthor(resolution: Case): Promise<void> {
    const { target, moderator, summary } = resolution;
    const author = await this.users.findById(target.authorId);
    if (!author) throw notFound('Author');
    refuseForbiddenBan(author, moderator, 'action');
    const kind = target instanceof Comment ? 'comment' : 'post';
    const reason = `Your ${kind} was reported for ${summary.reasons.join(', ')}.`;
    await this.resolving(resolution, ReportAction.BAN_AUTHOR, async (sql) => {
      await this.users.ban(author.id, reason, null, sql);
      await this.log.record(
        {
          actorId: moderator.id,
          action: ModerationAction.BAN_USER,
          targetType: ModerationTargetType.USER,
          targetId: author.id,
          reason,
          summary: author.handle,
        },
        sql,
      );
      await this.hide(resolution, sql);
    });
  }

  /** Logs `action` on the target, with the reports' count and reasons as its reason. */
  private record({ target, summary, moderator }: Case, action: ModerationAction, sql: SqlRunner) {
    const comment = target instanceof Comment;
    const record: ModerationRecord = {
      actorId: moderator.id,
      action,
      targetType: comment ? ModerationTargetType.COMMENT : ModerationTargetType.POST,
      targetId: target.id,
      reason: `${summary.reports} ${summary.reports === 1 ? 'report' : 'reports'}: ${summary.reasons.join(', ')}`,
      summary: comment ? target.text : target.title,
    };
    return this.log.record(record, sql);
  }
}

/** A deleted target as it was: a post as it stood, a comment as a tombstone without its text. */
function deleted(target: Post | Comment): Post | Comment {
  if (!(target instanceof Comment)) return target;
  return Object.assign(new Comment(), {
    ...target,
    status: CommentStatus.DELETED,
    text: '',
    textHtml: '',
  });
}

const alreadyResolved = () => conflict('These reports are resolved already.', 'id');
