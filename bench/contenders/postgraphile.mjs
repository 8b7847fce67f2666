/**
 * PostGraphile 4.14 over a copy of the same PostgreSQL tables, plus the functions of
 * bench/peers/postgraphile-api.sql. Installed in bench/peers (graphql 15) by the runner.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createDatabase, dropDatabase, runSqlScript } from '../lib/databases.mjs';
import { startServer } from '../lib/processes.mjs';
import { COLD_START_QUERIES } from '../operations.mjs';

export function postgraphile(ctx) {
  const database = `${ctx.pgTemplate}_graphile`;
  return {
    id: 'postgraphile',
    label: 'PostGraphile 4.14, PostgreSQL',
    dialect: 'postgraphile',
    // With DEBUG=postgraphile:postgres each statement (begin, set_config and commit included)
    // is logged as `<time> postgraphile:postgres <sql>`.
    statementPattern: /^\S+ postgraphile:postgres /gm,
    coldStartQuery: COLD_START_QUERIES.postgraphile,
    async prepare() {
      await createDatabase(ctx.postgres, database, ctx.pgTemplate);
      const api = readFileSync(join(ctx.root, 'bench/peers/postgraphile-api.sql'), 'utf8');
      await runSqlScript(ctx.postgres.url(database), api);
    },
    start: ({ logStatements, port, suffix = '', probe = 'graphql' }) =>
      startServer({
        name: 'postgraphile',
        args: [join(ctx.root, 'bench/peers/postgraphile-server.mjs')],
        cwd: join(ctx.root, 'bench/peers'),
        port,
        probe,
        logFile: join(ctx.tmp, `postgraphile${suffix}.log`),
        env: {
          NODE_ENV: 'production',
          JWT_SECRET: ctx.secret,
          DATABASE_URL: ctx.postgres.url(database),
          PORT: String(port),
          DEBUG: logStatements ? 'postgraphile:postgres' : '',
        },
      }),
    async dispose() {
      await dropDatabase(ctx.postgres, database);
    },
  };
}
