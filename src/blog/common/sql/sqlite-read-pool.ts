import { Worker } from 'node:worker_threads';

/** What the pool needs to know of the database and its limits. */
export interface SqliteReadPoolOptions {
  /** The database file, in WAL mode: each worker opens it read-only. */
  file: string;
  /** Worker threads at most, started as reads need them. */
  workers: number;
  /** A read still running after this many ms is given up and its worker replaced; 0: never. */
  timeoutMs: number;
  /** The module each worker loads as its driver (`better-sqlite3`, resolved by the caller). */
  driver: string;
  /** Called when a read passes `timeoutMs`: the error its caller gets. */
  timedOut: (timeoutMs: number) => Error;
}

/** A read waiting for a worker, or running on one. */
interface Job {
  text: string;
  values: unknown[];
  /** Aborted once the read is not wanted any more (its operation stopped): it is not started. */
  signal?: AbortSignal;
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

/** A worker with its one connection, and the read it runs (null when idle). */
interface Reader {
  worker: Worker;
  /** False until the worker has opened its connection: reads are sent to it only then. */
  ready: boolean;
  /**
   * Settles once the worker is ready or gone. A worker is never terminated before: Node aborts
   * the whole process when a worker is stopped while it loads a native addon.
   */
  started: Promise<void>;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

interface Reply {
  rows?: unknown[];
  error?: { message: string; code?: string };
}

/*
 * The worker: a read-only connection to the file, each text prepared once, one read at a time,
 * its rows (or its error) posted back. CommonJS source, so that it runs the same under ts-jest
 * and from dist.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true, timeout: 5000 });
const prepared = new Map();
parentPort.postMessage('ready');
parentPort.on('message', ({ text, values }) => {
  try {
    let statement = prepared.get(text);
    if (!statement) {
      statement = db.prepare(text);
      prepared.set(text, statement);
    }
    parentPort.postMessage({ rows: statement.all(...values) });
  } catch (error) {
    parentPort.postMessage({ error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

/**
 * Reads of a SQLite database on worker threads, so that a long one never stalls the event loop.
 * Each worker has a read-only connection of its own to the file; under WAL they read in parallel
 * with each other and with the service's own connection, which keeps every write (and every
 * statement of a transaction), one at a time, as before. A read sees what was committed when it
 * starts.
 *
 * Workers start as reads need them, up to `workers`, and stay. A read that runs past `timeoutMs`
 * is answered with `timedOut`, and its worker is dropped and replaced: SQLite cannot be
 * interrupted from another thread through better-sqlite3, so the dropped worker finishes the
 * statement on its own thread, then exits, and holds nobody up meanwhile.
 */
export class SqliteReadPool {
  private readonly readers = new Set<Reader>();
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(private readonly options: SqliteReadPoolOptions) {}

  /** How many workers the pool may run at once. */
  get size(): number {
    return this.options.workers;
  }

  /**
   * The rows of a read-only statement, run on a worker. A read whose `signal` is aborted before a
   * worker takes it is not run: it fails with the signal's reason.
   */
  all(text: string, values: unknown[], signal?: AbortSignal): Promise<unknown[]> {
    if (this.closed) return Promise.reject(new Error('The SQLite read pool is closed.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ text, values, signal, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; reads still waiting fail, and the pool takes no more. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The SQLite read pool closed.'));
    const stopping = [...this.readers].map((reader) => this.drop(reader));
    await Promise.all(stopping);
  }

  /** Sends waiting reads to idle workers, and starts workers for the rest while there is room. */
  private dispatch(): void {
    for (const reader of this.readers) {
      // A read that was not wanted any more leaves the worker free for the next.
      while (this.queue.length > 0 && reader.ready && !reader.job) {
        this.start(reader, this.queue.shift()!);
      }
    }
    if (this.queue.length === 0) return;
    const starting = [...this.readers].filter((reader) => !reader.ready).length;
    let wanted = this.queue.length - starting;
    while (wanted-- > 0 && this.readers.size < this.options.workers) this.spawn();
  }

  private spawn(): void {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: this.options.file, driver: this.options.driver },
    });
    worker.unref();
    let started!: () => void;
    const reader: Reader = {
      worker,
      ready: false,
      started: new Promise<void>((resolve) => (started = resolve)),
      job: null,
      timer: null,
    };
    worker.once('exit', () => started());
    worker.on('message', (reply: Reply | 'ready') => {
      if (reply !== 'ready') return this.finish(reader, reply);
      reader.ready = true;
      started();
      this.dispatch();
    });
    worker.on('error', (error) => this.fail(reader, error));
    worker.on('exit', () => this.fail(reader, new Error('A SQLite reader stopped.')));
    this.readers.add(reader);
  }

  private start(reader: Reader, job: Job): void {
    if (job.signal?.aborted) {
      job.reject(job.signal.reason as Error);
      return;
    }
    reader.job = job;
    const { timeoutMs } = this.options;
    if (timeoutMs > 0) reader.timer = setTimeout(() => this.timeOut(reader), timeoutMs);
    reader.worker.postMessage({ text: job.text, values: job.values });
  }

  private finish(reader: Reader, reply: Reply): void {
    const { job } = reader;
    if (!job) return;
    this.settle(reader);
    if (reply.error) job.reject(Object.assign(new Error(reply.error.message), reply.error));
    else job.resolve(reply.rows ?? []);
    this.dispatch();
  }

  /**
   * The worker failed or exited: its read fails, and another worker takes the queue. One that
   * could not even open the database fails the reads waiting too, rather than be started again
   * and again: the next read tries once more.
   */
  private fail(reader: Reader, error: Error): void {
    if (!this.readers.delete(reader)) return;
    const { job } = reader;
    this.settle(reader);
    job?.reject(error);
    if (!reader.ready) for (const waiting of this.queue.splice(0)) waiting.reject(error);
    this.dispatch();
  }

  private timeOut(reader: Reader): void {
    const { job } = reader;
    this.readers.delete(reader);
    this.settle(reader);
    void reader.worker.terminate();
    job?.reject(this.options.timedOut(this.options.timeoutMs));
    this.dispatch();
  }

  private settle(reader: Reader): void {
    if (reader.timer) clearTimeout(reader.timer);
    reader.timer = null;
    reader.job = null;
  }

  private async drop(reader: Reader): Promise<void> {
    const { job } = reader;
    this.readers.delete(reader);
    this.settle(reader);
    job?.reject(new Error('The SQLite read pool closed.'));
    await reader.started;
    await reader.worker.terminate();
  }
}
