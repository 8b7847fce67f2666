import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';

import {
  BACKSTOP_CHECKPOINT_PAGES,
  INLINE_CHECKPOINT_PAGES,
  SqliteCheckpointer,
} from './sqlite-checkpointer';

interface Connection {
  pragma(source: string, options?: { simple: boolean }): unknown;
  prepare(source: string): { run(...params: unknown[]): unknown };
}

const PAGE = 4096;

describe('SqliteCheckpointer', () => {
  let dir: string;
  let file: string;
  let dataSource: DataSource;
  let connection: Connection;
  let checkpointer: SqliteCheckpointer;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'blog-checkpointer-'));
    file = join(dir, 'blog.sqlite');
    dataSource = new DataSource({ type: 'better-sqlite3', database: file, enableWAL: true });
    await dataSource.initialize();
    connection = (dataSource.driver as unknown as { databaseConnection: Connection })
      .databaseConnection;
    connection.pragma('synchronous = NORMAL');
    connection.prepare('CREATE TABLE pages (id INTEGER PRIMARY KEY, body BLOB)').run();
    checkpointer = new SqliteCheckpointer(dataSource).configure({ intervalMs: 10 });
  });

  afterEach(async () => {
    await checkpointer.stop();
    if (dataSource.isInitialized) await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const interval = () => connection.pragma('wal_autocheckpoint', { simple: true });
  const walPages = () => Math.floor(statSync(`${file}-wal`).size / (PAGE + 24));
  /** `count` commits of about one page each, without yielding to the event loop. */
  const writePages = (count: number) => {
    const insert = connection.prepare('INSERT INTO pages (body) VALUES (randomblob(3500))');
    for (let i = 0; i < count; i++) insert.run();
  };
  const until = async (condition: () => boolean, what: string) => {
    for (let waited = 0; !condition(); waited += 10) {
      if (waited > 4_000)
        throw new Error(`timed out waiting for ${what}: ${JSON.stringify(checkpointer.last)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it("should copy the WAL back from its worker, with the connection's own checkpoints far apart", async () => {
    await checkpointer.start();
    expect(checkpointer.running).toBe(true);
    expect(interval()).toBe(BACKSTOP_CHECKPOINT_PAGES);

    // A reader on the empty WAL holds every checkpoint back while the pages are written: else the
    // worker could copy them all back while the machine holds this thread, and the WAL start over.
    const reader = new Database(file, { fileMustExist: true });
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT count(*) FROM pages').get();
    writePages(3 * INLINE_CHECKPOINT_PAGES);
    expect(walPages()).toBeGreaterThan(3 * INLINE_CHECKPOINT_PAGES);
    reader.prepare('COMMIT').run();
    reader.close();
    // The connection checkpoints only at 10,000 pages, so the worker copied these back.
    await until(() => {
      const last = checkpointer.last;
      return last !== null && last.log > 0 && last.checkpointed === last.log;
    }, 'every page back in the database file');
    expect(checkpointer.checkpoints).toBeGreaterThan(0);

    // Every page is back in the database file, so a commit starts the WAL over (not one that
    // meets the worker in the middle of a checkpoint: then the next one does).
    await until(() => {
      writePages(1);
      return checkpointer.last!.log < 10;
    }, 'the WAL to start over');
    expect(connection.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('should bound the WAL under writes that never pause, by the connection checkpointing', async () => {
    // The worker runs but never gets to checkpoint: a checkpoint of its own in flight would make
    // the connection's skip (SQLite lets one run at a time), and how long it takes is up to the
    // machine. The bound under test is the connection's alone.
    await checkpointer.configure({ backstopPages: 500, intervalMs: 3_600_000 }).start();
    expect(checkpointer.running).toBe(true);
    const before = statSync(`${file}-wal`).size;
    // About three pages a commit: 4,800 pages in all, without the backstop.
    for (let burst = 0; burst < 4; burst++) {
      writePages(400);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The file is as large as the WAL ever was: the backstop plus the commit that crossed it.
    expect(walPages()).toBeLessThanOrEqual(500 + 10);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(before);
    expect(checkpointer.checkpoints).toBe(0);
    const { count } = (await dataSource.query('SELECT count(*) AS count FROM pages'))[0] as {
      count: number;
    };
    expect(count).toBe(1600);
  });

  it("should go back to SQLite's interval when its worker stops", async () => {
    await checkpointer.start();
    expect(interval()).toBe(BACKSTOP_CHECKPOINT_PAGES);
    await (
      checkpointer as unknown as { worker: { terminate(): Promise<number> } }
    ).worker.terminate();
    await until(() => !checkpointer.running, 'the fallback');
    expect(interval()).toBe(INLINE_CHECKPOINT_PAGES);
    writePages(2 * INLINE_CHECKPOINT_PAGES);
    expect(walPages()).toBeLessThanOrEqual(INLINE_CHECKPOINT_PAGES + 10);
  });

  it("should leave SQLite's interval alone when its worker cannot start", async () => {
    connection.pragma('wal_autocheckpoint = 1234');
    await checkpointer.configure({ driver: join(dir, 'no-such-driver.js') }).start();
    expect(checkpointer.running).toBe(false);
    expect(interval()).toBe(1234);
  });

  it('should give checkpoints back to the connection when the module is destroyed', async () => {
    await checkpointer.start();
    await checkpointer.onModuleDestroy();
    expect(checkpointer.running).toBe(false);
    expect(interval()).toBe(INLINE_CHECKPOINT_PAGES);
    const last = checkpointer.last;
    writePages(10);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(checkpointer.last).toBe(last);
  });

  it('should not leave a worker behind when it stops while the worker starts', async () => {
    const starting = checkpointer.start();
    await checkpointer.stop();
    await starting;
    expect(checkpointer.running).toBe(false);
    expect(interval()).toBe(INLINE_CHECKPOINT_PAGES);
  });

  it('should start its worker once writes have filled the WAL to the size given', async () => {
    checkpointer.configure({ startAtBytes: 200 * PAGE, watchMs: 10 }).onApplicationBootstrap();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(checkpointer.running).toBe(false);
    expect(interval()).toBe(INLINE_CHECKPOINT_PAGES);
    writePages(100);
    await until(() => checkpointer.running, 'the worker');
    expect(interval()).toBe(BACKSTOP_CHECKPOINT_PAGES);
  });

  it('should do nothing on an in-memory database', async () => {
    const memory = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    await memory.initialize();
    const idle = new SqliteCheckpointer(memory).configure({ startAtBytes: 0, watchMs: 10 });
    idle.onApplicationBootstrap();
    await idle.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(idle.running).toBe(false);
    await memory.destroy();
  });
});
