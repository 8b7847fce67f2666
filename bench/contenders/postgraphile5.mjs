/**
 * PostGraphile 5 (Grafast) over a copy of the same PostgreSQL tables, plus the functions of
 * bench/peers/postgraphile-api.sql and PostGraphile 5's smart comments of
 * bench/peers5/postgraphile5-api.sql. Installed in bench/peers5 (graphql 16) by the runner.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createDatabase, dropDatabase, runSqlScript } from '../lib/databases.mjs';
import { startServer } from '../lib/processes.mjs';
import { COLD_START_QUERIES } from '../operations.mjs';

export function postgraphile5(ctx) {
  const id = 'postgraphile5';
  const database = `${ctx.pgTemplate}_graphile5`;
  return {
    id,
    label: 'PostGraphile 5 (Grafast, Amber preset), PostgreSQL',
    dialect: 'postgraphile',
    // With BENCH_SQL_LOG the server prints every statement its pool's connections send (begin,
    // set_config and commit around signed-in requests included) as `query: <sql>`.
    statementPattern: /^query:/gm,
    coldStartQuery: COLD_START_QUERIES.postgraphile5,
    async prepare() {
      await createDatabase(ctx.postgres, database, ctx.pgTemplate);
      for (const script of ['peers/postgraphile-api.sql', 'peers5/postgraphile5-api.sql']) {
        const sql = readFileSync(join(ctx.root, 'bench', script), 'utf8');
        await runSqlScript(ctx.postgres.url(database), sql);
      }
    },
    start: ({ logStatements, port, suffix = '', probe = 'graphql' }) =>
      startServer({
        name: id,
        args: [join(ctx.root, 'bench/peers5/postgraphile5-server.mjs')],
        cwd: join(ctx.root, 'bench/peers5'),
        port,
        probe,
        logFile: join(ctx.tmp, `${id}${suffix}.log`),
        env: {
          NODE_ENV: 'production',
          GRAPHILE_ENV: 'production',
          JWT_SECRET: ctx.secret,
          DATABASE_URL: ctx.postgres.url(database),
          BENCH_SQL_LOG: logStatements ? 'true' : 'false',
          PORT: String(port),
        },
      }),
    async dispose() {
      await dropDatabase(ctx.postgres, database);
    },
  };
}
