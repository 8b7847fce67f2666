import { ModerationItem, ReportTargetType } from './moderation-queue-item.entity';
import { Report } from './reports.entity';
import { ReportAction, ReportReason, ReportStatus } from './reports.enums';
import { toDate } from '../common/sql';

/** The select list that {@link toModerationItem} reads, for `moderation_items` aliased `i`. */
export const ITEM_COLUMNS =
  'i.id, i.target_type AS "targetType", i.target_id AS "targetId", i.post_id AS "postId", ' +
  'i.status, i.action, i.resolved_by AS "resolvedById", i.created_at AS "createdAt", ' +
  'i.resolved_at AS "resolvedAt"';

export interface ModerationItemRow {
  id: string;
  targetType: string;
  targetId: string;
  postId: string;
  status: string;
  action: string | null;
  resolvedById: string | null;
  createdAt: Date | string;
  resolvedAt: Date | string | null;
}

export function toModerationItem(row: ModerationItemRow): ModerationItem {
  return Object.assign(new ModerationItem(), {
    ...row,
    targetType: row.targetType as ReportTargetType,
    status: row.status.toUpperCase() as ReportStatus,
    action: row.action as ReportAction | null,
    createdAt: toDate(row.createdAt),
    resolvedAt: toDate(row.resolvedAt),
  });
}

/** The select list that {@link toReport} reads, for `reports` aliased `r`. */
export const REPORT_COLUMNS =
  'r.id, r.item_id AS "itemId", r.reporter_id AS "reporterId", r.target_type AS "targetType", ' +
  'r.target_id AS "targetId", r.reason, r.note, r.created_at AS "createdAt"';

export interface ReportRow {
  id: string;
  itemId: string;
  reporterId: string;
  targetType: string;
  targetId: string;
  reason: string;
  note: string | null;
  createdAt: Date | string;
}

export function toReport(row: ReportRow): Report {
  return Object.assign(new Report(), {
    ...row,
    targetType: row.targetType as ReportTargetType,
    reason: row.reason as ReportReason,
    createdAt: toDate(row.createdAt),
  });
}
