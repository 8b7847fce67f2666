import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';

import { postSearchIndexSql, SEARCH_INDEX_BATCH } from './posts.sql';
import { BackgroundDrain } from '../common/background-drain';
import { PreparedStatements, Sql, SqlRunner } from '../common/sql';

/** How long a new post waits for others to share its batch of SQLite's search index. */
export const SEARCH_INDEX_DELAY_MS = 20;

/** How long a batch that failed waits before it is tried again. */
export const SEARCH_INDEX_RETRY_MS = 1000;

/**
 * SQLite's search index of new posts, written in batches (migration 1765000900000). FTS5
 * writes what one transaction indexed as a segment of its own when it commits: indexing each
 * post in its own transaction cost `createPost` 0.21 ms, a batch of 100 posts 0.04 ms a post.
 *
 * A new post's row is marked as not indexed yet by the trigger that adds it, whoever writes it.
 * {@link SEARCH_INDEX_DELAY_MS} after a post is created here, one transaction indexes every such
 * row (at most {@link SEARCH_INDEX_BATCH} a transaction); and {@link PostSearchIndex.reading}
 * indexes them first, so that a search finds every post written before it, also by another
 * client. What a stopped process
 * left is indexed at the next start. A batch that fails is tried again, and searches go on
 * indexing the rows themselves.
 *
 * PostgreSQL indexes each post in its own transaction: there this does nothing.
 */
@Injectable()
export class PostSearchIndex implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PostSearchIndex.name);
  private readonly statements: PreparedStatements<typeof postSearchIndexSql>;
  private readonly batched: boolean;
  private readonly drainer = new BackgroundDrain(() => this.drain(), {
    delayMs: SEARCH_INDEX_DELAY_MS,
    retryMs: SEARCH_INDEX_RETRY_MS,
    task: 'index new posts for search',
    logger: this.logger,
  });

  constructor(private readonly sql: Sql) {
    this.statements = sql.prepare(postSearchIndexSql);
    this.batched = sql.dialect === 'sqlite';
  }

  /** Call once a transaction that created posts has committed: they are indexed shortly. */
  written(): void {
    if (this.batched) this.drainer.request();
  }

  /**
   * Runs `read` against an index that holds every post written so far: on SQLite, once a
   * transaction has indexed the posts not indexed yet (at most a batch each, so that no one
   * statement grows with them); the read itself then runs outside it, on a reader thread, so that
   * a long search never holds the connection or the event loop. On PostgreSQL, as it is.
   */
  async reading<T>(read: (sql: SqlRunner) => Promise<T>): Promise<T> {
    if (this.batched) {
      while ((await this.sql.transaction((sql) => this.indexBatch(sql))) === SEARCH_INDEX_BATCH);
    }
    return read(this.sql);
  }

  /** Resolves once the posts created here before the call are indexed (or their batch failed). */
  settled(): Promise<void> {
    return this.drainer.settled();
  }

  /**
   * Indexes, as the app starts, what a stopped process or another client left. A database it
   * cannot write stops no start: the batch is logged and tried again later.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (this.batched) await this.drainer.runNow();
  }

  /** Finishes the batch under way before the database closes; the rest waits for the next start. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.drainer.stop();
  }

  /** Indexes batch after batch until one comes back short (a failure leaves the rest pending). */
  private async drain(): Promise<void> {
    while (
      !this.drainer.isStopped &&
      (await this.sql.transaction((sql) => this.indexBatch(sql))) === SEARCH_INDEX_BATCH
    );
  }

  /** Indexes the oldest posts not indexed yet, at most a batch; returns how many. */
  private async indexBatch(sql: SqlRunner): Promise<number> {
    const range = await sql.one(this.statements.unindexed, { batch: SEARCH_INDEX_BATCH });
    if (!range || range.first === null || range.last === null) return 0;
    const { first, last } = range;
    await sql.run(this.statements.index, { first, last });
    await sql.run(this.statements.markIndexed, { first, last });
    return range.count;
  }
}
