import { Column, DataSource, Entity, Logger, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

import { Prepared, Sql, SqlRunner, statement } from './sql';
import { SqliteConnectionLock } from './sqlite-connection-lock';

@Entity('notes')
class Note {
  @PrimaryColumn({ type: 'varchar' })
  id: string;

  @Column({ type: 'varchar', default: '' })
  text: string;
}

/** Rows with a generated key: saving them reads nothing first. */
@Entity('lines')
class Line {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar' })
  text: string;
}

/** The statements in the order the connection ran them. */
class StatementLog implements Logger {
  readonly statements: string[] = [];
  logQuery(query: string, parameters?: unknown[]): void {
    this.statements.push(parameters?.length ? `${query} ${JSON.stringify(parameters)}` : query);
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}

  indexOf(fragment: string): number {
    return this.statements.findIndex((statement) => statement.includes(fragment));
  }
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Gives work that is not held back a turn of the event loop to run. */
const aTurn = () => new Promise((done) => setImmediate(done));

/**
 * better-sqlite3 gives TypeORM one connection, and one query runner, for everything: what
 * another request sends while a transaction is open must not land inside it.
 */
describe('Transactions on SQLite', () => {
  let dataSource: DataSource;
  let sql: Sql;
  let log: StatementLog;
  let insertRaw: Prepared<{ id: string }>;

  beforeEach(async () => {
    log = new StatementLog();
    dataSource = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [Note, Line],
      synchronize: true,
      logging: true,
      logger: log,
    });
    await dataSource.initialize();
    sql = new Sql(dataSource);
    ({ insertRaw } = sql.prepare({
      insertRaw: statement<{ id: string }>("INSERT INTO notes (id, text) VALUES (:id, 'raw')"),
    }));
    // The tests' own statements only: synchronize ran its own transaction.
    log.statements.length = 0;
  });
  afterEach(() => dataSource.destroy());

  const ids = async () =>
    (await dataSource.getRepository(Note).find({ order: { id: 'ASC' } })).map((note) => note.id);

  /**
   * Opens a transaction that inserts `id`, waits for `gate`, then commits (or fails) with the
   * ids it saw. Called in the test's own synchronous code, as a resolver would call it. It is
   * TypeORM's, or with `through: 'sql'` one of Sql.transaction.
   */
  function openTransaction(
    id: string,
    gate: Promise<void>,
    fail = false,
    through: 'typeorm' | 'sql' = 'typeorm',
  ) {
    const entered = deferred();
    const work = async (insert: () => Promise<unknown>) => {
      await insert();
      entered.resolve();
      await gate;
      const seen = await ids();
      if (fail) throw new Error('rolled back on purpose');
      return seen;
    };
    const done =
      through === 'sql'
        ? sql.transaction((runner) => work(() => runner.run(insertRaw, { id })))
        : dataSource.transaction((manager) => work(() => manager.insert(Note, { id })));
    return { done, entered: entered.promise };
  }

  it('should run a raw statement and a TypeORM write from outside after the commit', async () => {
    const gate = deferred();
    const { done: transaction, entered } = openTransaction('inside', gate.promise);
    await entered;
    const raw = sql.run(insertRaw, { id: 'raw' });
    const orm = dataSource.getRepository(Note).insert({ id: 'orm' });
    await aTurn();
    gate.resolve();

    expect(await transaction).toEqual(['inside']);
    await Promise.all([raw, orm]);
    expect(await ids()).toEqual(['inside', 'orm', 'raw']);
    const commit = log.indexOf('COMMIT');
    expect(log.indexOf('["raw"]')).toBeGreaterThan(commit);
    expect(log.indexOf('["orm"')).toBeGreaterThan(commit);
  });

  it('should keep the writes from outside when the transaction rolls back', async () => {
    const gate = deferred();
    const { done: transaction, entered } = openTransaction('inside', gate.promise, true);
    await entered;
    const raw = sql.run(insertRaw, { id: 'raw' });
    const saved = dataSource.getRepository(Note).save({ id: 'saved', text: 'by save' });
    const query = dataSource.query(`INSERT INTO notes (id) VALUES ('query')`);
    await aTurn();
    gate.resolve();

    await expect(transaction).rejects.toThrow('rolled back on purpose');
    await Promise.all([raw, saved, query]);
    expect(await ids()).toEqual(['query', 'raw', 'saved']);
  });

  it('should give a save from outside a transaction of its own, not join the open one', async () => {
    const gate = deferred();
    const { done: transaction, entered } = openTransaction('inside', gate.promise);
    await entered;
    const lines = dataSource.getRepository(Line);
    const save = lines.save([{ text: 'kept only with the other' }, { text: null! }]);
    await aTurn();
    gate.resolve();

    expect(await transaction).toEqual(['inside']);
    await expect(save).rejects.toThrow(/NOT NULL/);
    expect(await lines.count()).toBe(0);
  });

  it('should run two concurrent transactions one after the other, not one inside the other', async () => {
    const gate = deferred();
    const events: string[] = [];
    const first = dataSource.transaction(async (manager) => {
      events.push('first begins');
      await manager.insert(Note, { id: 'first' });
      await gate.promise;
      events.push('first ends');
    });
    const second = dataSource.transaction(async (manager) => {
      events.push('second begins');
      await manager.insert(Note, { id: 'second' });
    });
    await aTurn();
    gate.resolve();
    await Promise.all([first, second]);

    expect(events).toEqual(['first begins', 'first ends', 'second begins']);
    expect(log.indexOf('SAVEPOINT')).toBe(-1);
  });

  it('should stop marking async contexts once no transaction is open or waiting', async () => {
    const lock = SqliteConnectionLock.of(dataSource);
    const statement = () => 'ran';
    expect(lock.run(statement)).toBe('ran');
    const gate = deferred();
    const first = openTransaction('first', gate.promise);
    await first.entered;
    const second = openTransaction('second', Promise.resolve());
    expect(lock.tracking).toBe(true);
    // A statement from outside waits for the transactions, open and waiting.
    const waiting = lock.run(statement);
    expect(waiting).toBeInstanceOf(Promise);
    gate.resolve();
    await first.done;
    // The second still waited when the first committed: the marks stay until it ends.
    expect(lock.tracking).toBe(true);
    await second.done;
    expect(await waiting).toBe('ran');
    expect(lock.tracking).toBe(false);
    // Idle again: a statement runs at once, with no mark to look up.
    expect(lock.run(statement)).toBe('ran');
    expect(await ids()).toEqual(['first', 'second']);
    // And a transaction after that is marked again, and contained as before.
    const gate3 = deferred();
    const third = openTransaction('third', gate3.promise);
    await third.entered;
    expect(lock.tracking).toBe(true);
    const outside = dataSource.getRepository(Note).insert({ id: 'outside' });
    await aTurn();
    gate3.resolve();
    expect(await third.done).toEqual(['first', 'second', 'third']);
    await outside;
    expect(await ids()).toEqual(['first', 'outside', 'second', 'third']);
    expect(lock.tracking).toBe(false);
  });

  it('should run the statements of the transaction itself inside it, nested ones as savepoints', async () => {
    const failed = dataSource.transaction(async (manager) => {
      await sql.run(insertRaw, { id: 'raw inside' });
      await manager.transaction((nested) => nested.insert(Note, { id: 'nested' }));
      await manager.getRepository(Note).save({ id: 'saved inside' });
      throw new Error('rolled back on purpose');
    });

    await expect(failed).rejects.toThrow('rolled back on purpose');
    expect(await ids()).toEqual([]);
    expect(log.indexOf('SAVEPOINT')).toBeGreaterThan(-1);
  });

  it('should let a transaction started outside wait for the one that holds the connection', async () => {
    const gate = deferred();
    const { done: transaction, entered } = openTransaction('inside', gate.promise, true);
    await entered;
    const runner = dataSource.createQueryRunner();
    const direct = (async () => {
      await runner.startTransaction();
      await runner.query(`INSERT INTO notes (id) VALUES ('direct')`);
      await runner.commitTransaction();
    })();
    await aTurn();
    gate.resolve();

    await expect(transaction).rejects.toThrow('rolled back on purpose');
    await direct;
    expect(await ids()).toEqual(['direct']);
  });

  it("should run a Sql transaction's own statements inside it and the others after its COMMIT", async () => {
    const lock = SqliteConnectionLock.of(dataSource);
    const gate = deferred();
    const { done: ours, entered } = openTransaction('inside', gate.promise, false, 'sql');
    await entered;
    const raw = sql.run(insertRaw, { id: 'raw' });
    const orm = dataSource.getRepository(Note).insert({ id: 'orm' });
    const other = dataSource.transaction((manager) => manager.insert(Note, { id: 'other' }));
    await aTurn();
    expect(log.statements.at(-1)).toMatch(/^INSERT INTO notes .*\["inside"\]$/);
    gate.resolve();

    expect(await ours).toEqual(['inside']);
    await Promise.all([raw, orm, other]);
    expect(await ids()).toEqual(['inside', 'orm', 'other', 'raw']);
    const commit = log.indexOf('COMMIT');
    expect(log.indexOf('BEGIN TRANSACTION')).toBeLessThan(log.indexOf('["inside"]'));
    for (const outside of ['["raw"]', '["orm"', '["other"']) {
      expect(log.indexOf(outside)).toBeGreaterThan(commit);
    }
    expect(lock.tracking).toBe(false);
  });

  it('should keep the writes from outside when a Sql transaction rolls back', async () => {
    const gate = deferred();
    const { done: ours, entered } = openTransaction('inside', gate.promise, true, 'sql');
    await entered;
    const raw = sql.run(insertRaw, { id: 'raw' });
    const saved = dataSource.getRepository(Note).save({ id: 'saved', text: 'by save' });
    await aTurn();
    gate.resolve();

    await expect(ours).rejects.toThrow('rolled back on purpose');
    await Promise.all([raw, saved]);
    expect(await ids()).toEqual(['raw', 'saved']);
    expect(log.indexOf('["raw"]')).toBeGreaterThan(log.indexOf('ROLLBACK'));
  });

  it('should begin a Sql transaction only once a TypeORM one that holds the connection ends', async () => {
    const gate = deferred();
    const { done: transaction, entered } = openTransaction('inside', gate.promise);
    await entered;
    const ours = sql.transaction((runner) => runner.run(insertRaw, { id: 'ours' }));
    await aTurn();
    expect(log.indexOf('["ours"]')).toBe(-1);
    gate.resolve();

    expect(await transaction).toEqual(['inside']);
    expect(await ours).toBe(1);
    const after = log.statements
      .slice(log.indexOf('["inside"]'))
      .filter(
        (text) => /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT)/.test(text) || text.includes('["ours"]'),
      )
      .map((text) => (text.includes('["ours"]') ? 'ours' : text));
    expect(after).toEqual(['COMMIT', 'BEGIN TRANSACTION', 'ours', 'COMMIT']);
  });

  it('should leave alone a transaction it did not begin when its own BEGIN fails', async () => {
    // A transaction begun by hand, which the lock does not know about.
    await dataSource.query('BEGIN');
    await dataSource.query(`INSERT INTO notes (id) VALUES ('by hand')`);
    const ours = sql.transaction((runner) => runner.run(insertRaw, { id: 'ours' }));
    await expect(ours).rejects.toThrow(/within a transaction/);
    await dataSource.query('COMMIT');
    expect(await ids()).toEqual(['by hand']);
  });

  it('should make a Sql transaction inside a TypeORM one a savepoint of it', async () => {
    const failed = dataSource.transaction(async (manager) => {
      await manager.insert(Note, { id: 'outer' });
      const inner = sql.transaction(async (runner) => {
        await runner.run(insertRaw, { id: 'inner' });
        throw new Error('inner rolled back');
      });
      await expect(inner).rejects.toThrow('inner rolled back');
      await sql.transaction((runner) => runner.run(insertRaw, { id: 'kept inner' }));
      expect((await ids()).sort()).toEqual(['kept inner', 'outer']);
      throw new Error('rolled back on purpose');
    });

    await expect(failed).rejects.toThrow('rolled back on purpose');
    expect(await ids()).toEqual([]);
    expect(log.indexOf('ROLLBACK TO SAVEPOINT blog_savepoint_')).toBeGreaterThan(-1);
  });

  it('should call afterCommit callbacks once the transaction has committed, and never on a rollback', async () => {
    const seen: string[] = [];
    await sql.transaction(async (runner) => {
      await runner.run(insertRaw, { id: 'committed' });
      runner.afterCommit(() => seen.push(`after ${log.statements.at(-1)}`));
      seen.push('before the commit');
    });
    const failed = sql.transaction(async (runner) => {
      await runner.run(insertRaw, { id: 'rolled back' });
      runner.afterCommit(() => seen.push('rolled back'));
      throw new Error('rolled back on purpose');
    });
    await expect(failed).rejects.toThrow('rolled back on purpose');
    sql.afterCommit(() => seen.push('outside a transaction, at once'));

    expect(seen).toEqual(['before the commit', 'after COMMIT', 'outside a transaction, at once']);
    expect(await ids()).toEqual(['committed']);
  });
});

/** Runs `work` in a transaction, all or nothing. */
type Transact = <T>(work: (runner: SqlRunner) => Promise<T>) => Promise<T>;

/**
 * Sql sends its SQLite transactions itself, where it had TypeORM's query runner send them: the
 * same scenarios through both must send the same statements, in the same order, and leave the
 * same rows and outcomes.
 */
describe('Sql transactions on SQLite, against TypeORM transactions', () => {
  interface Scenario {
    name: string;
    run: (transact: Transact, sql: Sql, insert: Prepared<{ id: string }>) => Promise<unknown>;
  }

  /** A transaction that inserts `a`, then does `next`. */
  const afterInsertingA =
    (next: (runner: SqlRunner, insert: Prepared<{ id: string }>) => Promise<unknown>) =>
    (transact: Transact, _sql: Sql, insert: Prepared<{ id: string }>) =>
      transact(async (runner) => {
        await runner.run(insert, { id: 'a' });
        return next(runner, insert);
      });

  const scenarios: Scenario[] = [
    {
      name: 'two writes committed',
      run: afterInsertingA((runner, insert) => runner.run(insert, { id: 'b' })),
    },
    {
      name: 'a throw that rolls back',
      run: afterInsertingA(() => Promise.reject(new Error('on purpose'))),
    },
    {
      name: 'a failed statement that rolls back the ones before it',
      run: afterInsertingA((runner, insert) => runner.run(insert, { id: 'a' })),
    },
    {
      name: 'a nested transaction rolled back, the outer one committed',
      run: (transact, _sql, insert) =>
        transact(async (runner) => {
          await runner.run(insert, { id: 'outer' });
          const inner = await transact(async (nested) => {
            await nested.run(insert, { id: 'inner' });
            throw new Error('inner');
          }).catch((error: Error) => error.message);
          await transact((nested) => nested.run(insert, { id: 'kept' }));
          await runner.run(insert, { id: 'after' });
          return inner;
        }),
    },
    {
      name: 'a COMMIT that fails (a deferred foreign key), then a statement after it',
      run: async (transact, sql, insert) => {
        const { orphan } = sql.prepare({
          orphan: statement<{ id: string }>(
            "INSERT INTO children (id, note_id) VALUES (:id, 'missing')",
          ),
        });
        const outcome = await transact(async (runner) => {
          await runner.run(insert, { id: 'with the orphan' });
          return runner.run(orphan, { id: 'orphan' });
        }).catch((error: Error) => `failed: ${error.message}`);
        await sql.run(insert, { id: 'after' });
        return outcome;
      },
    },
    {
      name: 'two at once, with a statement from outside while the first is open',
      run: async (transact, sql, insert) => {
        const gate = deferred();
        const entered = deferred();
        const first = transact(async (runner) => {
          await runner.run(insert, { id: 'first' });
          entered.resolve();
          await gate.promise;
          return runner.run(insert, { id: 'first again' });
        });
        await entered.promise;
        const outside = sql.run(insert, { id: 'outside' });
        const second = transact((runner) => runner.run(insert, { id: 'second' }));
        await aTurn();
        gate.resolve();
        return Promise.all([first, outside, second]);
      },
    },
  ];

  async function play(scenario: Scenario, through: 'typeorm' | 'sql') {
    const log = new StatementLog();
    const dataSource = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [Note],
      synchronize: true,
      logging: true,
      logger: log,
    });
    await dataSource.initialize();
    try {
      await dataSource.query(
        'CREATE TABLE children (id varchar PRIMARY KEY, note_id varchar REFERENCES notes (id) DEFERRABLE INITIALLY DEFERRED)',
      );
      log.statements.length = 0;
      const sql = new Sql(dataSource);
      const { insert } = sql.prepare({
        insert: statement<{ id: string }>("INSERT INTO notes (id, text) VALUES (:id, 'x')"),
      });
      // What Sql.transaction did before: TypeORM's transaction, its statements sent through Sql.
      const transact: Transact =
        through === 'sql'
          ? (work) => sql.transaction(work)
          : (work) => dataSource.transaction(() => work(sql));
      const outcome = await scenario.run(transact, sql, insert).then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.message }),
      );
      const notes = await dataSource.query('SELECT id FROM notes ORDER BY id');
      const children = await dataSource.query('SELECT id FROM children ORDER BY id');
      const inTransaction = (
        dataSource.driver as unknown as { databaseConnection: { inTransaction: boolean } }
      ).databaseConnection.inTransaction;
      return {
        outcome,
        notes,
        children,
        inTransaction,
        statements: log.statements.map((text) =>
          text.replace(/\b(typeorm_\d+|blog_savepoint_\d+)\b/g, 'savepoint'),
        ),
      };
    } finally {
      await dataSource.destroy();
    }
  }

  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))(
    'should do the same as TypeORM: %s',
    async (_name, scenario) => {
      const expected = await play(scenario, 'typeorm');
      const actual = await play(scenario, 'sql');
      expect(actual).toEqual(expected);
      expect(actual.inTransaction).toBe(false);
      expect(actual.statements).toContain('BEGIN TRANSACTION');
    },
  );
});
