import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';

import { SqliteReadPool, SqliteReadPoolOptions } from './sqlite-read-pool';
import { ErrorCode, statementTimeout } from '../errors';

/** A read that counts to `n` in SQLite: about 0.1 s per million on this kind of machine. */
const counting = (n: number) =>
  `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${n}) ` +
  'SELECT COUNT(*) AS n FROM c';

describe('SqliteReadPool', () => {
  let dir: string;
  let file: string;
  let writer: Database.Database;
  let pool: SqliteReadPool;

  const open = (options: Partial<SqliteReadPoolOptions> = {}) =>
    new SqliteReadPool({
      file,
      workers: 2,
      timeoutMs: 0,
      driver: require.resolve('better-sqlite3'),
      timedOut: statementTimeout,
      ...options,
    });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blog-read-pool-'));
    file = join(dir, 'blog.sqlite');
    writer = new Database(file);
    writer.pragma('journal_mode = WAL');
    writer.prepare('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)').run();
    writer.prepare("INSERT INTO notes (body) VALUES ('one'), ('two')").run();
  });

  afterEach(async () => {
    await pool?.close();
    writer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should answer a read with its rows, and see what was committed before it', async () => {
    pool = open();
    expect(await pool.all('SELECT body FROM notes ORDER BY id', [])).toEqual([
      { body: 'one' },
      { body: 'two' },
    ]);
    writer.prepare('INSERT INTO notes (body) VALUES (?)').run('three');
    expect(await pool.all('SELECT body FROM notes WHERE id > ?', [2])).toEqual([{ body: 'three' }]);
  });

  it('should leave the event loop free while a long read runs', async () => {
    pool = open();
    let turns = 0;
    const tick = setInterval(() => turns++, 0);
    try {
      const [row] = (await pool.all(counting(3_000_000), [])) as Array<{ n: number }>;
      expect(row.n).toBe(3_000_000);
      // Run on the event loop's thread, the read would resolve before any timer fired.
      expect(turns).toBeGreaterThan(0);
    } finally {
      clearInterval(tick);
    }
  });

  it('should give up a read past the time budget with STATEMENT_TIMEOUT, and go on reading', async () => {
    pool = open({ workers: 1, timeoutMs: 50 });
    const late = pool.all(counting(5_000_000), []);
    const next = pool.all('SELECT COUNT(*) AS n FROM notes', []);
    await expect(late).rejects.toMatchObject({
      extensions: { code: ErrorCode.StatementTimeout, timeoutMs: 50 },
    });
    // Queued behind the read that timed out, it runs on the worker that replaced it.
    expect(await next).toEqual([{ n: 2 }]);
  });

  it("should fail a statement with the driver's message and code, and keep the worker", async () => {
    pool = open({ workers: 1 });
    const error = (await pool.all('SELECT missing FROM notes', []).catch((e) => e)) as Error;
    expect(error.message).toContain('no such column: missing');
    expect((error as Error & { code: string }).code).toBe('SQLITE_ERROR');
    expect(await pool.all('SELECT COUNT(*) AS n FROM notes', [])).toEqual([{ n: 2 }]);
  });

  it('should run reads in parallel up to its size, and queue the rest', async () => {
    pool = open({ workers: 2 });
    const reads = [1, 2, 3, 4, 5].map((id) =>
      pool.all('SELECT ? AS id, COUNT(*) AS n FROM notes', [id]),
    );
    expect(await Promise.all(reads)).toEqual([1, 2, 3, 4, 5].map((id) => [{ id, n: 2 }]));
  });

  it('should not start a waiting read whose operation has stopped, and go on with the next', async () => {
    pool = open({ workers: 1 });
    const running = pool.all(counting(1_000_000), []);
    const controller = new AbortController();
    const dropped = pool.all('SELECT 1 AS one', [], controller.signal);
    const next = pool.all('SELECT 2 AS two', []);
    controller.abort(new Error('the client closed the connection'));
    await expect(dropped).rejects.toThrow('the client closed the connection');
    expect(await next).toEqual([{ two: 2 }]);
    await running;
  });

  it('should close while its first worker still loads its driver, without aborting the process', async () => {
    // A CI run aborted (napi_get_last_error_info) when a worker was stopped while it loaded
    // better-sqlite3: close now waits for the worker to be ready, or gone, before stopping it.
    for (let i = 0; i < 5; i++) {
      const closing = open();
      const read = closing.all('SELECT 1 AS one', []).catch((error: Error) => error);
      await closing.close();
      expect(String(await read)).toMatch(/closed/);
    }
  });

  it('should fail the reads waiting and under way when it closes, and take no more', async () => {
    pool = open({ workers: 1 });
    const running = expect(pool.all(counting(2_000_000), [])).rejects.toThrow(/closed/);
    const waiting = expect(pool.all('SELECT 1 AS one', [])).rejects.toThrow(/closed/);
    await pool.close();
    await running;
    await waiting;
    await expect(pool.all('SELECT 1 AS one', [])).rejects.toThrow(/closed/);
  });

  it('should fail the reads, not start workers again and again, when the database cannot open', async () => {
    pool = open({ file: join(dir, 'missing.sqlite') });
    const reads = [1, 2, 3].map((id) => pool.all('SELECT ? AS id', [id]).catch((e: Error) => e));
    for (const error of await Promise.all(reads)) expect(String(error)).toMatch(/unable to open/);
  });
});
