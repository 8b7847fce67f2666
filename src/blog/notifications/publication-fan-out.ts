import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';

import { NotificationKind } from './notification-kind';
import {
  FAN_OUT_BATCH,
  FAN_OUT_CHUNK,
  notificationsSql,
  PendingPublicationRow,
} from './notifications.sql';
import { BackgroundDrain } from '../common/background-drain';
import { messageOf } from '../common/errors';
import { PreparedStatements, Sql, SqlRunner, toDate } from '../common/sql';
import { BlogEvents, FollowerRange } from '../events/blog-events';

/** How long a publication waits for others to share its fan-out's run. */
export const FAN_OUT_DELAY_MS = 10;

/** How long a fan-out that failed waits before it is tried again. */
export const FAN_OUT_RETRY_MS = 1000;

/** How many times a publication's chunk may fail before the publication is parked. */
export const FAN_OUT_MAX_ATTEMPTS = 5;

/**
 * How long a reader (and a follow) waits at most for this instance's fan-outs under way before it
 * answers from what is written: long enough for the chunks of a usual publication, short enough
 * that a very large or failing one holds nobody up.
 */
export const FAN_OUT_READ_WAIT_MS = 250;

/**
 * Tells the followers of an author who publishes, after the publication has committed. The
 * publication's transaction writes one pending row (`publication_fan_outs`) instead of a
 * notification per follower; {@link FAN_OUT_DELAY_MS} later, the fan-out writes the followers'
 * notifications in chunks of {@link FAN_OUT_CHUNK} followers by id, each chunk its own short
 * transaction (one statement that reads the chunk's last follower, one `INSERT ... SELECT` up to
 * it), so that no statement grows with the number of followers. Pending publications take turns,
 * a chunk each, with a turn of the event loop between chunks: a publication to 500,000 followers
 * delays nobody's request, nor another publication's followers. Each chunk is announced live as
 * it commits.
 *
 * A chunk that fails (a follower's row locked past PostgreSQL's `lock_timeout` of 2 s, a
 * statement past its time budget) counts an attempt and the fan-out moves on to the other
 * publications; the failed one is tried again {@link FAN_OUT_RETRY_MS} later, and after
 * {@link FAN_OUT_MAX_ATTEMPTS} failures it is parked: left in place, logged at error level and
 * counted ({@link PublicationFanOut.parked}), for an operator to look at.
 *
 * The notifications' ids are made from the time of the chunk's write, so that they order
 * notifications as they were written: a follower who marked their notifications read up to one
 * they saw never marks one written after it. Their `createdAt` is the publication's time.
 *
 * Readers wait for this instance's fan-outs at most {@link FAN_OUT_READ_WAIT_MS}, and not at all
 * once one has failed: they answer from what is written. Pending rows that a stopped process
 * left are taken at the next start, and on PostgreSQL by whichever instance fans out next; a
 * publication whose post or author is being deleted is skipped, not waited for.
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
  /** Whether the last run left a publication that failed: readers then wait for nothing. */
  private failing = false;
  /** Publications parked by this instance since it started. */
  private parkedHere = 0;

  constructor(
    private readonly sql: Sql,
    private readonly events: BlogEvents,
  ) {
    this.statements = sql.prepare(notificationsSql);
  }

  /** Publications this instance has parked since it started (a metric). */
  get parked(): number {
    return this.parkedHere;
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
   * Resolves once the publications committed on this instance before the call are fanned out,
   * or set aside after failing (for the tests, and for a shutdown).
   */
  settled(): Promise<void> {
    return this.drainer.settled();
  }

  /**
   * What a reader waits for: {@link settled}, but at most {@link FAN_OUT_READ_WAIT_MS}, and not
   * at all while a fan-out is failing.
   */
  async caughtUp(): Promise<void> {
    if (this.failing) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FAN_OUT_READ_WAIT_MS);
    });
    try {
      await Promise.race([this.drainer.settled(), bound]);
    } finally {
      clearTimeout(timer);
    }
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
    this.drainer.request();
  }

  /** Lets the chunk under way end before the database closes; the rest waits for the next start. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.drainer.stop();
  }

  /**
   * Round after round over the pending publications, a chunk of each in turn, until none is left
   * that has not failed in this run (those sit out the rest of it). A transaction takes the chunks
   * of several publications while they add up to less than {@link FAN_OUT_CHUNK} rows (most
   * publications fit in one); once a transaction has failed, the run goes on a publication a
   * transaction, so that the one that fails is the one counted. True when publications are left
   * that it could not take (they failed, or on PostgreSQL another instance holds them): the drain
   * looks again {@link FAN_OUT_RETRY_MS} later, without making readers wait for them.
   */
  private async drain(): Promise<boolean> {
    const failed = new Set<string>();
    let fromId: number | string = 0;
    let alone = false;
    while (!this.drainer.isStopped) {
      const outcome = await this.nextChunks(fromId, failed, alone);
      if (outcome === 'none') break;
      if (outcome === 'failed') {
        alone = true;
        continue;
      }
      fromId = nextId(outcome.lastId);
      if (!outcome.worked) break;
      // A turn of the event loop between transactions: other requests go first.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.failing = failed.size > 0;
    if (this.drainer.isStopped) return false;
    return (
      failed.size > 0 ||
      (this.sql.dialect === 'postgres' &&
        !!(await this.sql.one(this.statements.anyPendingPublication, {})))
    );
  }

  /**
   * One transaction: the next pending publications in turn (see claimPublications; one when
   * `alone`), and a chunk of each that has not failed in this run, while the rows written stay
   * under {@link FAN_OUT_CHUNK}; each chunk announced once committed. The last publication it
   * looked at, and whether it wrote any chunk; 'none' when nothing is pending; 'failed' when the
   * transaction of several failed (nothing of it holds, and nothing is counted).
   */
  private async nextChunks(
    fromId: number | string,
    failed: Set<string>,
    alone: boolean,
  ): Promise<{ lastId: number | string; worked: boolean } | 'none' | 'failed'> {
    const claimed: PendingPublicationRow[] = [];
    const announced: Array<{ row: PendingPublicationRow; range: FollowerRange }> = [];
    let lastId: number | string = fromId;
    try {
      await this.sql.transaction(async (sql) => {
        const s = this.statements;
        if (this.sql.dialect === 'postgres') await sql.run(s.lockTimeout, {});
        const limit = alone ? 1 : FAN_OUT_BATCH;
        claimed.push(...(await sql.all(s.claimPublications, { fromId, limit })));
        const done: Array<number | string> = [];
        let written = 0;
        for (const row of claimed) {
          if (written >= FAN_OUT_CHUNK) break;
          lastId = row.id;
          if (failed.has(String(row.id))) continue;
          const chunk = await this.fanOutChunk(sql, row);
          written += chunk.written;
          if (chunk.range) announced.push({ row, range: chunk.range });
          if (chunk.done) done.push(row.id);
        }
        if (done.length > 0) await sql.run(s.releasePublications, { ids: done });
      });
    } catch (error) {
      if (claimed.length === 0) throw error;
      if (claimed.length > 1) return 'failed';
      const [row] = claimed;
      failed.add(String(row.id));
      this.failing = true;
      await this.recordFailure(row, error);
      return { lastId: row.id, worked: true };
    }
    if (claimed.length === 0) return 'none';
    for (const { row, range } of announced) {
      this.events.notificationAdded({
        kind: NotificationKind.FOLLOWEE_PUBLISHED,
        actorId: row.actorId,
        postId: row.postId,
        followers: range,
      });
    }
    return { lastId, worked: claimed.some((row) => !failed.has(String(row.id))) };
  }

  /**
   * Notifies the next chunk of followers of `row`, in the transaction `sql`: how many rows it
   * wrote, the range of followers they went to (none when none was left), and whether the
   * publication is done; a full chunk records where the next starts.
   */
  private async fanOutChunk(
    sql: SqlRunner,
    row: PendingPublicationRow,
  ): Promise<{ written: number; range: FollowerRange | null; done: boolean }> {
    const s = this.statements;
    const after = row.afterFollower ?? '';
    const written = await sql.run(s.insertForFollowers, {
      actorId: row.actorId,
      postId: row.postId,
      createdAt: toDate(row.createdAt) as Date,
      idPrefix: idPrefixAt(new Date()),
      after,
      chunk: FAN_OUT_CHUNK,
    });
    if (written < FAN_OUT_CHUNK) {
      return { written, range: written > 0 ? { after } : null, done: true };
    }
    const end = await sql.one(s.lastOfChunk, {
      actorId: row.actorId,
      after,
      offset: FAN_OUT_CHUNK - 1,
    });
    const last = end?.followerId ?? after;
    await sql.run(s.advancePublication, { id: row.id, last });
    return { written, range: { after, last }, done: false };
  }

  /** Counts a failed chunk of `row`, and parks it at the last attempt, in a transaction of its own. */
  private async recordFailure(row: PendingPublicationRow, error: unknown): Promise<void> {
    const attempts = Number(row.attempts) + 1;
    const parked = attempts >= FAN_OUT_MAX_ATTEMPTS;
    try {
      await this.sql.run(this.statements.failPublication, {
        id: row.id,
        parkedAt: parked ? new Date() : null,
      });
    } catch (recording) {
      this.logger.warn(
        `Could not count the failure of the fan-out of post ${row.postId}: ${messageOf(recording)}`,
      );
      return;
    }
    if (!parked) {
      this.logger.warn(
        `The fan-out of post ${row.postId} failed (attempt ${attempts} of ${FAN_OUT_MAX_ATTEMPTS}), trying again later: ${messageOf(error)}`,
      );
      return;
    }
    this.parkedHere += 1;
    this.logger.error(
      `The fan-out of post ${row.postId} failed ${attempts} times and is parked (publication_fan_outs.id ${row.id}); its remaining followers get no notification until parked_at is cleared: ${messageOf(error)}`,
    );
  }
}

/** The id after `id` in the pending rows' order (a bigint comes back from PostgreSQL as text). */
function nextId(id: number | string): number | string {
  return typeof id === 'number' ? id + 1 : (BigInt(id) + 1n).toString();
}

/** The first 48 bits of a UUIDv7 made at `at` (its milliseconds), as `xxxxxxxx-xxxx`. */
export function idPrefixAt(at: Date): string {
  const hex = at.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
}
