import { testDatabase } from './helpers/databases';
import { TestApp } from './helpers/test-app';
import { clientClosedRequest, ErrorCode } from '../src/blog/common/errors';
import { RequestScope, runInRequestScope } from '../src/blog/common/request-scope';
import { Sql, statement } from '../src/blog/common/sql';

const sqlite = testDatabase() === 'sqlite';

/** A read that runs for a while on either database: about 0.1 s per million on SQLite. */
const longRead = (rows: number) =>
  statement<object, { n: number | string }>(
    {
      sqlite:
        `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${rows}) ` +
        'SELECT COUNT(*) AS n FROM c',
      postgres: `SELECT COUNT(*) AS n FROM generate_series(1, ${rows}) CROSS JOIN pg_sleep(${rows / 10_000_000})`,
    },
    { runsLong: true },
  );

describe('The statement time budget and the event loop (e2e)', () => {
  let t: TestApp;
  let sql: Sql;

  beforeAll(async () => {
    t = await TestApp.start({ env: { DATABASE_STATEMENT_TIMEOUT_MS: '300' } });
    sql = t.app.get(Sql, { strict: false });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should answer STATEMENT_TIMEOUT for a read past DATABASE_STATEMENT_TIMEOUT_MS, and go on serving', async () => {
    const { slow } = sql.prepare({ slow: longRead(30_000_000) });
    await expect(sql.all(slow, {})).rejects.toMatchObject({
      extensions: { code: ErrorCode.StatementTimeout, timeoutMs: 300 },
    });
    expect(await t.data('{ posts(first: 1) { id } }')).toEqual({ posts: [] });
  });

  it("should answer another client's request while a long read runs", async () => {
    const { slow } = sql.prepare({ slow: longRead(30_000_000) });
    let settled = false;
    const read = sql.all(slow, {}).finally(() => (settled = true));
    const other = await t.gql('{ __typename }');
    expect(other).toEqual({ data: { __typename: 'Query' } });
    // On SQLite the read runs on a reader thread; on the event loop's own it would have ended
    // before the other request could even be read.
    expect(settled).toBe(false);
    await expect(read).rejects.toMatchObject({ extensions: { code: ErrorCode.StatementTimeout } });
  });

  it('should send no statement for an operation that has stopped, even one waiting for its share', async () => {
    // Marked as running long, so that on SQLite too it takes a reader thread of the share.
    const { quick } = sql.prepare({
      quick: statement<object, { one: number }>('SELECT 1 AS one', { runsLong: true }),
    });
    const scope = new RequestScope();
    const reads = runInRequestScope(scope, () =>
      Array.from({ length: 12 }, () =>
        sql.all(quick, {}).then(
          () => 'sent',
          (error: unknown) => error,
        ),
      ),
    );
    scope.stop(clientClosedRequest());
    const outcomes = await Promise.all(reads);
    // Those under way already (the operation's share: half the pool) end; no other is sent.
    // On SQLite one that waits for a reader thread to start is not sent either.
    const share = sqlite ? 1 : 5;
    const sent = outcomes.filter((outcome) => outcome === 'sent').length;
    expect(sent).toBeLessThanOrEqual(share);
    if (!sqlite) expect(sent).toBe(share);
    for (const outcome of outcomes.slice(sent)) {
      expect(outcome).toMatchObject({ extensions: { code: ErrorCode.ClientClosedRequest } });
    }
  });
});
