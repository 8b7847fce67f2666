import type { EntityManager } from 'typeorm';

import { BOB, C4, DEE, EVE, P2, P4, P6 } from './seed';
import { ModerationTargetType } from '../../src/blog/moderation/moderation-action';
import { ModerationItem } from '../../src/blog/moderation/moderation-queue-item.entity';
import { Report } from '../../src/blog/moderation/reports.entity';
import { ReportAction, ReportReason, ReportStatus } from '../../src/blog/moderation/reports.enums';

// The seed's ids are read when seedModeration runs, never when this module loads: seed.ts may
// import this file while it is itself loading.

/** An id of the seed's form (see seed.ts). */
const id = (n: string) => `01920000-0000-7000-8000-${n.padStart(12, '0')}`;
const at = (second: number) => new Date(Date.UTC(2025, 0, 30, 12, 0, second, 210 + second));

/**
 * The moderation queue of the seed, oldest first: M1, open, Cyd's post P4 reported by Bob (SPAM,
 * with a note) and Dee (HATE); M2, open, Cyd's comment C4 reported by Dee (OFF_TOPIC); M3, Cyd's
 * post P6, reported by Bob and dismissed by Eve.
 */
export const M1 = id('f01');
export const M2 = id('f02');
export const M3 = id('f03');

/** Bob's report in M1, the first of the seed's reports. */
export const R11 = id('f11');

/**
 * The tables of reports and their dump order, to put first in TABLES (deleted first, dumped
 * last); copy the rows there rather than spread this, as seed.ts would read it while loading.
 */
export const MODERATION_TABLES: [table: string, orderBy: string][] = [
  ['reports', 'target_type, target_id, reporter_id'],
  ['moderation_items', 'target_type, target_id, status, created_at'],
];

/** Writes the moderation queue of the seed; for resetToSeed, after the posts and comments. */
export async function seedModeration(manager: EntityManager): Promise<void> {
  const item = (
    itemId: string,
    type: ModerationTargetType.POST | ModerationTargetType.COMMENT,
    targetId: string,
    postId: string,
    second: number,
    resolved = false,
  ) =>
    Object.assign(new ModerationItem(), {
      id: itemId,
      targetType: type,
      targetId,
      postId,
      status: resolved ? ReportStatus.RESOLVED : ReportStatus.OPEN,
      action: resolved ? ReportAction.DISMISS : null,
      resolvedById: resolved ? EVE : null,
      createdAt: at(second),
      resolvedAt: resolved ? at(second + 20) : null,
    });
  await manager.insert(ModerationItem, [
    item(M1, ModerationTargetType.POST, P4, P4, 1),
    item(M2, ModerationTargetType.COMMENT, C4, P2, 2),
    item(M3, ModerationTargetType.POST, P6, P6, 3, true),
  ]);
  const report = (
    reportId: string,
    itemId: string,
    reporterId: string,
    reason: ReportReason,
    note: string | null,
    second: number,
  ) => {
    const target = { [M1]: P4, [M2]: C4, [M3]: P6 }[itemId]!;
    return Object.assign(new Report(), {
      id: reportId,
      itemId,
      reporterId,
      targetType: itemId === M2 ? ModerationTargetType.COMMENT : ModerationTargetType.POST,
      targetId: target,
      reason,
      note,
      createdAt: at(second),
    });
  };
  await manager.insert(Report, [
    report(R11, M1, BOB, ReportReason.SPAM, 'Affiliate links <b>everywhere</b>', 1),
    report(id('f12'), M1, DEE, ReportReason.HATE, null, 4),
    report(id('f21'), M2, DEE, ReportReason.OFF_TOPIC, null, 2),
    report(id('f31'), M3, BOB, ReportReason.OTHER, 'Not sure', 3),
  ]);
}
