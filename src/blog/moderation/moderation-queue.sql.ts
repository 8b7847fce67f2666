import { ITEM_COLUMNS, ModerationItemRow, REPORT_COLUMNS, ReportRow } from './reports.rows';
import { statement } from '../common/sql';
import { lockUser } from '../users/users.sql';

/** What names a report's target. */
interface TargetParameters {
  targetType: string;
  targetId: string;
}

/** The statements of filing a report (see ReportsService). */
export const reportsSql = {
  /**
   * The reporter's row, which a report's transaction holds on PostgreSQL until it ends, so that
   * one reporter's reports are counted one after the other. SQLite runs one transaction at once.
   */
  lockReporter: lockUser,
  reported: statement<TargetParameters & { reporterId: string }, { one: number }>(
    'SELECT 1 AS one FROM reports r WHERE r.reporter_id = :reporterId ' +
      'AND r.target_type = :targetType AND r.target_id = :targetId',
  ),
  /** The reporter's reports since `since`, and the oldest of them. */
  recent: statement<
    { reporterId: string; since: Date },
    { count: string | number; oldest: Date | string | null }
  >(
    'SELECT COUNT(*) AS count, MIN(r.created_at) AS oldest FROM reports r ' +
      'WHERE r.reporter_id = :reporterId AND r.created_at > :since',
  ),
  /** An open item for the target, unless it has one. */
  openItem: statement<TargetParameters & { id: string; postId: string; createdAt: Date }>(
    'INSERT INTO moderation_items (id, target_type, target_id, post_id, status, created_at) ' +
      "VALUES (:id, :targetType, :targetId, :postId, 'open', :createdAt) ON CONFLICT DO NOTHING",
  ),
  /** The target's open item, held until the transaction ends on PostgreSQL. */
  openItemOf: statement<TargetParameters, { id: string }>({
    sqlite:
      'SELECT i.id FROM moderation_items i WHERE i.target_type = :targetType ' +
      "AND i.target_id = :targetId AND i.status = 'open'",
    postgres:
      'SELECT i.id FROM moderation_items i WHERE i.target_type = :targetType ' +
      "AND i.target_id = :targetId AND i.status = 'open' FOR UPDATE",
  }),
  insert: statement<Omit<ReportRow, 'createdAt'> & { createdAt: Date }>(
    'INSERT INTO reports (id, item_id, reporter_id, target_type, target_id, reason, note, ' +
      'created_at) VALUES (:id, :itemId, :reporterId, :targetType, :targetId, :reason, :note, ' +
      ':createdAt) ON CONFLICT DO NOTHING',
  ),
  reporters: statement<{ itemId: string }, { count: string | number }>(
    'SELECT COUNT(DISTINCT r.reporter_id) AS count FROM reports r WHERE r.item_id = :itemId',
  ),
};

/**
 * An item whose target is still there. A post's items go with it (ON DELETE CASCADE); a
 * comment's stay when it is removed, and are left out.
 */
const TARGET_EXISTS =
  "(i.target_type = 'POST' OR EXISTS (SELECT 1 FROM comments c WHERE c.id = i.target_id))";

const OPEN_ORDER = 'ORDER BY i.id LIMIT :first';
const RESOLVED_ORDER = 'ORDER BY i.resolved_at DESC, i.id DESC LIMIT :first';

/** A page of the queue: open items oldest first, resolved ones newest resolved first. */
const page = (status: 'open' | 'resolved', after: string) =>
  statement<{ first: number; afterId?: string; afterAt?: Date }, ModerationItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM moderation_items i WHERE i.status = '${status}'${after} ` +
      `AND ${TARGET_EXISTS} ${status === 'open' ? OPEN_ORDER : RESOLVED_ORDER}`,
  );

const count = (status: 'open' | 'resolved') =>
  statement<object, { count: string | number }>(
    `SELECT COUNT(*) AS count FROM moderation_items i WHERE i.status = '${status}' ` +
      `AND ${TARGET_EXISTS}`,
    { runsLong: true },
  );

/** The first reports of each item, oldest first: ids from the (item, id) index per item, then rows. */
const reportsPerItem = (after: boolean) => {
  const ids =
    `SELECT x.id FROM reports x WHERE x.item_id = k.value${after ? ' AND x.id > :after' : ''} ` +
    'ORDER BY x.id LIMIT :first';
  return statement<{ keys: readonly string[]; first: number; after?: string }, ReportRow>({
    sqlite: `SELECT ${REPORT_COLUMNS} FROM KEYS(:...keys) k JOIN reports r ON r.id IN (${ids}) ORDER BY r.id`,
    postgres: `SELECT ${REPORT_COLUMNS} FROM KEYS(:...keys) k CROSS JOIN LATERAL (${ids}) t JOIN reports r ON r.id = t.id ORDER BY r.id`,
  });
};

/** The statements of the moderation queue (see ModerationQueueService). */
export const moderationQueueSql = {
  byId: statement<{ id: string }, ModerationItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM moderation_items i WHERE i.id = :id`,
  ),
  openPage: page('open', ''),
  openPageAfter: page('open', ' AND i.id > :afterId'),
  resolvedPage: page('resolved', ''),
  resolvedPageAfter: page(
    'resolved',
    ' AND (i.resolved_at < :afterAt OR (i.resolved_at = :afterAt AND i.id < :afterId))',
  ),
  countOpen: count('open'),
  countResolved: count('resolved'),
  /** How many reports of each item give each reason. */
  reasons: statement<
    { ids: readonly string[] },
    { key: string; reason: string; count: string | number }
  >(
    'SELECT r.item_id AS key, r.reason, COUNT(*) AS count FROM reports r ' +
      'WHERE r.item_id IN (:...ids) GROUP BY r.item_id, r.reason',
  ),
  reportsOf: reportsPerItem(false),
  reportsOfAfter: reportsPerItem(true),
  /** Resolves an open item; nothing when it is resolved already. */
  resolve: statement<{ id: string; action: string; resolvedBy: string; at: Date }>(
    "UPDATE moderation_items SET status = 'resolved', action = :action, " +
      "resolved_by = :resolvedBy, resolved_at = :at WHERE id = :id AND status = 'open'",
  ),
};
