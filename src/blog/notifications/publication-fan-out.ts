import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';

import { NotificationKind } from './notification-kind';
import { FAN_OUT_BATCH, notificationsSql, PendingPublicationRow } from './notifications.sql';
import { BackgroundDrain } from '../common/background-drain';
import { messageOf } from '../common/errors';
import { PreparedStatements, Sql, SqlRunner, toDate } from '../common/sql';
import { BlogEvents } from '../events/blog-events';

/** How long a publication waits for others to share its fan-out's transaction. */
export const FAN_OUT_DELAY_MS = 10;

/** How long a fan-out that failed waits before it is tried again. */
export const FAN_OUT_RETRY_MS = 1000;

/**
 * Tells the followers of an author who publishes, after the publication has committed. The
 * publication's transaction writes one pending row (`publication_fan_outs`) instead of a
 * notification per follower; {@link FAN_OUT_DELAY_MS} later, one transaction writes the
 * followers' notifications of every pending publication (at most {@link FAN_OUT_BATCH} a
 * transaction, one `INSERT ... SELECT FROM follows` each, as the publication itself did before)
 * and deletes their rows, and each publication is then announced live.
 *
 * The notifications are those the publication would have written itself: its own time, ids of
 * that time, and its author's followers. Reading or marking one's notifications, following and
 * unfollowing wait first for this instance's pending publications, so on the instance that
 * wrote it a follower never sees a publication without its notification, and the followers are
 * those of the moment of the publication (a follow on another instance within the fan-out's
 * delay may count or not).
 * A fan-out that fails is tried again; pending rows that a stopped process left are taken at
 * the next start, and on PostgreSQL by whichever instance fans out next. On PostgreSQL a
 * publication whose post or author is being deleted is skipped, not waited for: its row goes
 * with the deletion, or, if the deletion rolls back, a fan-out that left rows behind takes it
 * when it looks again {@link FAN_OUT_RETRY_MS} later.
 */
@Injectable()
export class PublicationFanOut implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PublicationFanOut.name);
  private readonly statements: PreparedStatements<typeof notificationsSql>;
  private readonly drainer = new BackgroundDrain(() => this.drain(), {
    delayMs: FAN_OUT_DELAY_MS,
    retryMs: FAN_OUT_RETRY_MS,
    task: 'notify the followers of new posts',
    logger: this.logger,
  });

  constructor(
    private readonly sql: Sql,
    private readonly events: BlogEvents,
  ) {
    this.statements = sql.prepare(notificationsSql);
  }

  /** Writes the pending row of a publication made at `createdAt`, in its transaction `sql`. */
  async enqueue(
    sql: SqlRunner,
    publication: { postId: string; actorId: string },
    createdAt: Date,
  ): Promise<void> {
    await sql.run(this.statements.enqueuePublication, { ...publication, createdAt });
  }

  /** Call once a publication's transaction has committed: its fan-out follows shortly. */
  published(): void {
    this.drainer.request();
  }

  /**
   * Resolves once the publications committed on this instance before the call are fanned out
   * (or their fan-out failed, and is tried again later).
   */
  settled(): Promise<void> {
    return this.drainer.settled();
  }

  /**
   * Fans out what a process that stopped before this one left pending. A database it cannot
   * read (down, or without the migration) stops no start: publishing fails there as any write.
   */
  async onApplicationBootstrap(): Promise<void> {
    try {
      if (!(await this.sql.one(this.statements.anyPendingPublication, {}))) return;
    } catch (error) {
      this.logger.warn(`Could not look for publications left pending: ${messageOf(error)}`);
      return;
    }
    await this.drainer.runNow();
  }

  /** Fans out what is pending here before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.drainer.settled();
    await this.drainer.stop();
  }

  /**
   * Fans out batch after batch until one comes back short (a failure leaves the rest pending).
   * True when rows are left that it could not take (on PostgreSQL: held by another instance,
   * or skipped while their post or author was locked): the drain looks again
   * {@link FAN_OUT_RETRY_MS} later, without making readers wait for them.
   */
  private async drain(): Promise<boolean> {
    while (!this.drainer.isStopped && (await this.fanOutBatch()) === FAN_OUT_BATCH);
    // SQLite's claim skips nothing: what a publication adds meanwhile has its own turn.
    return (
      !this.drainer.isStopped &&
      this.sql.dialect === 'postgres' &&
      !!(await this.sql.one(this.statements.anyPendingPublication, {}))
    );
  }

  /** One transaction: the oldest pending publications' notifications, then their events. */
  private async fanOutBatch(): Promise<number> {
    const s = this.statements;
    const { claimed, raised } = await this.sql.transaction(async (sql) => {
      const rows = await sql.all(s.claimPublications, {});
      const withFollowers: PendingPublicationRow[] = [];
      for (const row of rows) {
        const createdAt = toDate(row.createdAt) as Date;
        const parameters = { ...row, createdAt, idPrefix: idPrefixAt(createdAt) };
        if ((await sql.run(s.insertForFollowers, parameters)) > 0) withFollowers.push(row);
      }
      if (rows.length > 0) await sql.run(s.releasePublications, { ids: rows.map((r) => r.id) });
      return { claimed: rows.length, raised: withFollowers };
    });
    for (const { actorId, postId } of raised) {
      this.events.notificationAdded({ kind: NotificationKind.FOLLOWEE_PUBLISHED, actorId, postId });
    }
    return claimed;
  }
}

/** The first 48 bits of a UUIDv7 made at `at` (its milliseconds), as `xxxxxxxx-xxxx`. */
export function idPrefixAt(at: Date): string {
  const hex = at.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
}
