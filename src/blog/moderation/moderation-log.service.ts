import { Injectable } from '@nestjs/common';

import { ModerationAction, ModerationTargetType } from './moderation-action';
import { ModerationLogEntry } from './moderation-log.entity';
import { moderationLogSql, ModerationLogRow } from './moderation-log.sql';
import { PreparedStatements, Sql, SqlRunner, toDate } from '../common/sql';
import { newId } from '../common/uuid';

/** What a moderation action writes to the log. */
export interface ModerationRecord {
  /** Null for the auto-hide rule. */
  actorId: string | null;
  action: ModerationAction;
  targetType: ModerationTargetType;
  targetId: string;
  reason?: string | null;
  /** What the target is now, cut to 200 characters: a title, a comment's words, a handle. */
  summary?: string | null;
}

/** The most characters of a summary. */
const SUMMARY_LENGTH = 200;

function toEntry(row: ModerationLogRow): ModerationLogEntry {
  return Object.assign(new ModerationLogEntry(), {
    ...row,
    action: row.action as ModerationAction,
    targetType: row.targetType as ModerationTargetType,
    createdAt: toDate(row.createdAt),
  });
}

/**
 * The moderation log: every moderation action, written in the transaction of the action itself
 * so that none is done unlogged, and read by admins, newest first.
 */
@Injectable()
export class ModerationLogService {
  private readonly statements: PreparedStatements<typeof moderationLogSql>;

  constructor(private readonly sql: Sql) {
    this.statements = sql.prepare(moderationLogSql);
  }

  /** Writes `record` on `sql` (the action's transaction), or on its own. */
  async record(record: ModerationRecord, sql: SqlRunner = this.sql): Promise<void> {
    const summary = record.summary ? [...record.summary].slice(0, SUMMARY_LENGTH).join('') : null;
    await sql.run(this.statements.insert, {
      id: newId(),
      actorId: record.actorId,
      action: record.action,
      targetType: record.targetType,
      targetId: record.targetId,
      reason: record.reason ?? null,
      summary,
      createdAt: new Date(),
    });
  }

  /** A page of the log, newest first: `first + 1` entries, to tell whether more follow. */
  async page(first: number, after: string | null): Promise<ModerationLogEntry[]> {
    const rows = after
      ? await this.sql.all(this.statements.pageAfter, { first: first + 1, after })
      : await this.sql.all(this.statements.page, { first: first + 1 });
    return rows.map(toEntry);
  }

  async count(): Promise<number> {
    return Number((await this.sql.one(this.statements.count, {}))?.count ?? 0);
  }
}
