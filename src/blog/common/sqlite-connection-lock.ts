import { AsyncLocalStorage } from 'node:async_hooks';

import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/** The holder of the connection: an object made for each transaction, marking its context. */
type Holder = object;

/** What this lock reads and replaces of TypeORM's better-sqlite3 query runner. */
type SharedQueryRunner = QueryRunner & { transactionDepth: number };
type Query = (...args: unknown[]) => Promise<unknown>;

const locks = new WeakMap<DataSource, SqliteConnectionLock>();

/** Runs `undo`, keeping quiet about its failure: the error to report is the one that led to it. */
function attempt(undo: () => void): void {
  try {
    undo();
  } catch {
    // The failed statement was reported by `send` itself.
  }
}

/**
 * One queue for the single connection of a SQLite DataSource. TypeORM's better-sqlite3 driver
 * runs everything on one connection and one query runner, so an open transaction is open for
 * every request: another request's statement sent while it awaits would land inside it (and be
 * rolled back with it), and a second transaction would become a savepoint of the first.
 *
 * Transactions take the connection one at a time, and AsyncLocalStorage marks the async context
 * of the one that holds it: its own statements (and nested transactions, as savepoints) run at
 * once; a statement from any other context waits until it has ended, and a transaction waits
 * for the statements already under way. With no transaction open or waiting, a statement costs
 * a flag check. A transaction must not await work of another context that needs the database
 * (say, a loader batch that another request started): that work would wait for it.
 *
 * The blog's own transactions are sent by {@link SqliteConnectionLock.transaction}; TypeORM's
 * (a host's, or migrations') go through its query runner, which the lock guards.
 *
 * PostgreSQL needs none of this: its pool gives each transaction a connection of its own.
 */
export class SqliteConnectionLock {
  private readonly context = new AsyncLocalStorage<Holder>();
  private holder: Holder | null = null;
  private waitingTransactions = 0;
  private statementsUnderWay = 0;
  private nextChange: { promise: Promise<void>; resolve: () => void } | null = null;
  /** True from a transaction's mark until the lock next goes idle and disables the context. */
  private marking = false;
  /** Savepoints named so far, so that each gets a name of its own. */
  private savepoints = 0;

  /** The lock of `dataSource`, installed on its query runner and manager the first time. */
  static of(dataSource: DataSource): SqliteConnectionLock {
    let lock = locks.get(dataSource);
    if (!lock) {
      lock = new SqliteConnectionLock();
      lock.install(dataSource);
      locks.set(dataSource, lock);
    }
    return lock;
  }

  private constructor() {}

  /** Runs a synchronous statement now, or once no transaction of another context is open. */
  run<T>(statement: () => T): T | Promise<T> {
    if (!this.mustWait()) return statement();
    return this.changed().then(() => this.run(statement));
  }

  /**
   * Runs `work` as a transaction sent straight to the connection, without TypeORM's query runner
   * (its events and layers of awaits cost more than the BEGIN and COMMIT themselves): BEGIN,
   * `work`, COMMIT, or ROLLBACK when `work` or the COMMIT throws. It holds the connection as a
   * TypeORM transaction does, so statements and transactions of other contexts wait for it and
   * it waits for theirs. Inside a transaction that this context holds (its own or TypeORM's), it
   * is a savepoint. `send` runs one statement; `inTransaction` tells whether the connection has
   * one open (SQLite ends some on its own error).
   */
  async transaction<T>(
    send: (text: string) => void,
    inTransaction: () => boolean,
    work: () => Promise<T>,
  ): Promise<T> {
    if (this.holds()) return this.savepoint(send, work);
    return this.runMarked(async () => {
      const holder = await this.take();
      let begun = false;
      try {
        send('BEGIN TRANSACTION');
        begun = true;
        const result = await work();
        send('COMMIT');
        return result;
      } catch (error) {
        // A failed COMMIT leaves the transaction open: it is rolled back before anyone else runs.
        // As in TypeORM, the error reported is the one that stopped the transaction.
        if (begun && inTransaction()) attempt(() => send('ROLLBACK'));
        throw error;
      } finally {
        this.release(holder);
      }
    });
  }

  private async savepoint<T>(send: (text: string) => void, work: () => Promise<T>): Promise<T> {
    const name = `blog_savepoint_${++this.savepoints}`;
    send(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      send(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      // Left on the stack, as TypeORM leaves its own: the outer COMMIT or ROLLBACK ends it.
      attempt(() => send(`ROLLBACK TO SAVEPOINT ${name}`));
      throw error;
    }
  }

  /** Like run, for a statement with awaits in it: no transaction begins while it is under way. */
  private async runAsync<T>(statement: () => Promise<T>): Promise<T> {
    if (this.holds()) return statement();
    while (this.mustWait()) await this.changed();
    this.statementsUnderWay += 1;
    try {
      return await statement();
    } finally {
      this.statementsUnderWay -= 1;
      if (this.statementsUnderWay === 0) this.signal();
    }
  }

  /**
   * True when the current async context holds the connection (runs inside a transaction): its
   * reads must see what it has written, so they run on the connection too.
   */
  heldHere(): boolean {
    return this.holds();
  }

  /** True when the current async context holds the connection. */
  private holds(): boolean {
    return this.holder !== null && this.context.getStore() === this.holder;
  }

  private mustWait(): boolean {
    return (this.holder !== null || this.waitingTransactions > 0) && !this.holds();
  }

  /**
   * Marks the caller's async context as the holder to be, from this synchronous point on, and
   * resolves once it holds the connection. Called at the start of a transaction, this marks the
   * code that runs it (TypeORM begins transactions at the top of the async function that then
   * runs their statements).
   */
  private take(): Promise<Holder> {
    const holder: Holder = {};
    this.context.enterWith(holder);
    this.marking = true;
    return this.takeFor(holder);
  }

  private async takeFor(holder: Holder): Promise<Holder> {
    this.waitingTransactions += 1;
    try {
      while (this.holder !== null || this.statementsUnderWay > 0) await this.changed();
    } finally {
      this.waitingTransactions -= 1;
    }
    this.holder = holder;
    return holder;
  }

  private release(holder: Holder): void {
    if (this.holder !== holder) return;
    this.holder = null;
    this.signal();
    // On Node 22 an enabled AsyncLocalStorage hooks every promise of the process (Node 24 and
    // later carry it in the async context frame instead): with no transaction open or waiting,
    // nothing needs the marks.
    if (this.waitingTransactions === 0) {
      this.context.disable();
      this.marking = false;
    }
  }

  /** True while the marks of transactions are kept (between a transaction and the next idle moment). */
  get tracking(): boolean {
    return this.marking;
  }

  /** Runs `work` in a context of its own, which this lock marks. */
  private runMarked<T>(work: () => T): T {
    this.marking = true;
    return this.context.run({}, work);
  }

  private changed(): Promise<void> {
    if (!this.nextChange) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.nextChange = { promise, resolve };
    }
    return this.nextChange.promise;
  }

  private signal(): void {
    const change = this.nextChange;
    this.nextChange = null;
    change?.resolve();
  }

  private install(dataSource: DataSource): void {
    const runner = dataSource.driver.createQueryRunner('master') as SharedQueryRunner;
    this.guardQueryRunner(runner);
    this.containManagerTransactions(dataSource.manager);
  }

  private guardQueryRunner(runner: SharedQueryRunner): void {
    const query = runner.query.bind(runner) as Query;
    const start = runner.startTransaction.bind(runner);
    const commit = runner.commitTransaction.bind(runner);
    const rollback = runner.rollbackTransaction.bind(runner);

    (runner as unknown as { query: Query }).query = (...args) =>
      this.runAsync(() => query(...args));

    runner.startTransaction = async (isolation) => {
      if (this.holds()) return start(isolation);
      const holder = await this.take();
      try {
        await start(isolation);
      } catch (error) {
        this.release(holder);
        throw error;
      }
    };
    runner.commitTransaction = async () => {
      const outermost = runner.transactionDepth === 1;
      const holder = this.holder;
      await commit();
      // A failed COMMIT keeps the lock: the ROLLBACK that follows it releases it.
      if (outermost && holder) this.release(holder);
    };
    runner.rollbackTransaction = async () => {
      const outermost = runner.transactionDepth === 1;
      const holder = this.holder;
      try {
        await rollback();
      } finally {
        if (outermost && holder) this.release(holder);
      }
    };

    // "Is a transaction open?" is asked by code that joins one rather than beginning its own
    // (repository.save): only the holder may join; anyone else begins one, and waits for it.
    let active = runner.isTransactionActive;
    Object.defineProperty(runner, 'isTransactionActive', {
      configurable: true,
      enumerable: true,
      get: () => active && (this.holder === null || this.holds()),
      set: (value: boolean) => {
        active = value;
      },
    });
  }

  /**
   * `transaction()` begins synchronously, so the mark that `take` sets would reach the caller's
   * code after the call too (`const done = dataSource.transaction(...); await sql.run(...)`):
   * give the call a context of its own.
   */
  private containManagerTransactions(manager: EntityManager): void {
    const transaction = manager.transaction.bind(manager) as (...args: unknown[]) => unknown;
    manager.transaction = ((...args: unknown[]) =>
      this.holds()
        ? transaction(...args)
        : this.runMarked(() => transaction(...args))) as EntityManager['transaction'];
  }
}
