import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';

import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** What the checkpointer needs of a better-sqlite3 connection. */
interface SqliteConnection {
  readonly open: boolean;
  pragma(source: string, options?: { simple: boolean }): unknown;
}

/** One result of `PRAGMA wal_checkpoint`: busy flag, frames in the WAL, frames copied back. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export interface SqliteCheckpointerOptions {
  /** How often the worker runs a passive checkpoint, in ms. */
  intervalMs?: number;
  /** The service's connection checkpoints by itself at this many pages in the WAL. */
  backstopPages?: number;
  /** The size of the WAL file at which the worker starts. */
  startAtBytes?: number;
  /** How often the WAL file's size is looked at until then, in ms. */
  watchMs?: number;
  /** The module the worker loads as its driver (tests name one that fails). */
  driver?: string;
}

/**
 * SQLite's own interval: a checkpoint once the WAL holds this many pages. The service's
 * connection goes back to it whenever the worker is not running.
 */
export const INLINE_CHECKPOINT_PAGES = 1000;
/**
 * The service's connection still checkpoints by itself once the WAL holds this many pages: the
 * worker's checkpoints run beside the writes, so under writes that never pause the WAL would
 * never start over, and this bounds it (about 40 MB at 4 KiB pages). SQLite runs one
 * checkpoint at a time, so while one of the worker's is in flight the connection's skips and
 * tries again at its next commit: the WAL can pass the bound by what is written meanwhile.
 */
export const BACKSTOP_CHECKPOINT_PAGES = 10_000;

/*
 * The worker: its own connection to the file, a passive checkpoint every interval (it never
 * takes the write lock, so it never blocks or fails a write of the service's connection), and
 * each new result posted back. CommonJS source, so that it runs the same under ts-jest and from dist.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -64');
let previous = '';
const timer = setInterval(() => {
  const [result] = db.pragma('wal_checkpoint(PASSIVE)');
  const key = result.busy + ':' + result.log + ':' + result.checkpointed;
  if (key !== previous) parentPort.postMessage(result);
  previous = key;
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

/**
 * Moves SQLite's WAL checkpoints, and the two `fsync` calls each one makes, off the event loop.
 *
 * SQLite checkpoints in the connection that commits, so every thousandth page written stalls
 * the whole process while the WAL is copied back and synced (0.3–0.4 ms a post, on average,
 * under a stream of `createPost`). Here a worker thread with a connection of its own runs a
 * passive checkpoint every `intervalMs`; the service's connection keeps a far larger interval
 * ({@link BACKSTOP_CHECKPOINT_PAGES}) as the bound on the WAL. Answers and writes are the same:
 * only when pages reach the database file changes, with the same syncs.
 *
 * The worker (about 8 MB) starts once the WAL file reaches `startAtBytes`, so a service that
 * only reads never holds it. If it cannot start or stops, the connection goes back to SQLite's
 * own interval. On PostgreSQL and on an in-memory SQLite database nothing runs.
 */
@Injectable()
export class SqliteCheckpointer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SqliteCheckpointer.name);
  private worker: Worker | null = null;
  private watch: NodeJS.Timeout | null = null;
  private starting: Promise<void> | null = null;
  private options: Required<SqliteCheckpointerOptions> = {
    intervalMs: 100,
    backstopPages: BACKSTOP_CHECKPOINT_PAGES,
    startAtBytes: 1024 * 1024,
    watchMs: 1000,
    driver: require.resolve('better-sqlite3'),
  };
  /** The worker's last checkpoint, for diagnostics and tests. */
  last: CheckpointResult | null = null;
  /** How many of the worker's results showed pages copied back. */
  checkpoints = 0;

  constructor(private readonly dataSource: DataSource) {}

  /** Whether the worker is checkpointing now. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Changes the options; takes effect at the next {@link start}. */
  configure(options: SqliteCheckpointerOptions): this {
    this.options = { ...this.options, ...options };
    return this;
  }

  /** Watches the WAL's size, and starts the worker once writes have filled `startAtBytes`. */
  onApplicationBootstrap(): void {
    const file = this.databaseFile();
    if (!file || this.watch) return;
    const poll = async () => {
      const size = await stat(`${file}-wal`).then(
        (wal) => wal.size,
        () => 0,
      );
      if (size < this.options.startAtBytes || !this.watch) return;
      this.stopWatching();
      await this.start();
    };
    this.watch = setInterval(() => void poll(), this.options.watchMs).unref();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  /** Starts the worker, on a file SQLite database; resolves once it checkpoints. */
  start(): Promise<void> {
    this.starting ??= this.startWorker().finally(() => (this.starting = null));
    return this.starting;
  }

  private async startWorker(): Promise<void> {
    const file = this.databaseFile();
    if (this.worker || !file) return;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // A few objects a tick: a young generation of 1 MB is plenty.
      resourceLimits: { maxYoungGenerationSizeMb: 1, stackSizeMb: 1 },
      workerData: { file, driver: this.options.driver, intervalMs: this.options.intervalMs },
    });
    worker.unref();
    try {
      const [first] = (await Promise.race([once(worker, 'message'), once(worker, 'error')])) as [
        unknown,
      ];
      if (first !== 'ready') throw first;
    } catch (error) {
      await worker.terminate();
      this.logger.warn(`WAL checkpoints stay inline: the worker did not start (${String(error)})`);
      return;
    }
    this.worker = worker;
    this.connection.pragma(`wal_autocheckpoint = ${this.options.backstopPages}`);
    worker.on('message', (result: CheckpointResult) => {
      if (result.checkpointed > 0) this.checkpoints++;
      this.last = result;
    });
    worker.on('error', (error) => {
      this.logger.warn(`WAL checkpoints go back inline: the worker failed (${String(error)})`);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.fallBack();
    });
  }

  /** Stops the worker and gives checkpoints back to the service's connection. */
  async stop(): Promise<void> {
    this.stopWatching();
    await this.starting;
    const worker = this.worker;
    if (!worker) return;
    this.fallBack();
    await this.stopWorker(worker);
  }

  /** TypeORM's one better-sqlite3 connection (closed once the data source is destroyed). */
  private get connection(): SqliteConnection {
    return (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection })
      .databaseConnection;
  }

  private databaseFile(): string | null {
    const { type, database } = this.dataSource.options;
    if (type !== 'better-sqlite3' || typeof database !== 'string') return null;
    return database === ':memory:' || database === '' ? null : database;
  }

  private async stopWorker(worker: Worker): Promise<void> {
    const exited = once(worker, 'exit');
    worker.postMessage('stop');
    const timeout = setTimeout(() => void worker.terminate(), 5000);
    await exited;
    clearTimeout(timeout);
  }

  private stopWatching(): void {
    if (this.watch) clearInterval(this.watch);
    this.watch = null;
  }

  private fallBack(): void {
    this.worker = null;
    const { connection } = this;
    if (connection.open) connection.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
  }
}
