import { statement } from '../common/sql';

/** A log entry as the statements read it. */
export interface ModerationLogRow {
  id: string;
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  reason: string | null;
  summary: string | null;
  createdAt: Date | string;
}

const COLUMNS =
  'l.id, l.actor_id AS "actorId", l.action, l.target_type AS "targetType", ' +
  'l.target_id AS "targetId", l.reason, l.summary, l.created_at AS "createdAt"';

const page = (after: boolean) =>
  statement<{ first: number; after?: string }, ModerationLogRow>(
    `SELECT ${COLUMNS} FROM moderation_log l${after ? ' WHERE l.id < :after' : ''} ` +
      'ORDER BY l.id DESC LIMIT :first',
  );

/** The statements of the moderation log: newest first, by its time-ordered ids. */
export const moderationLogSql = {
  insert: statement<Omit<ModerationLogRow, 'createdAt'> & { createdAt: Date }>(
    'INSERT INTO moderation_log (id, actor_id, action, target_type, target_id, reason, summary, ' +
      'created_at) VALUES (:id, :actorId, :action, :targetType, :targetId, :reason, :summary, ' +
      ':createdAt)',
  ),
  page: page(false),
  pageAfter: page(true),
  count: statement<object, { count: string | number }>(
    'SELECT COUNT(*) AS count FROM moderation_log',
  ),
};
