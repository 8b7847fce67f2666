/**
 * Our service, production build (dist/), on SQLite or PostgreSQL: started as in production,
 * with migrations on start (a no-op on the generated data) and no demo seed.
 */
import { join } from 'node:path';

import { startEnvironment, startOptions } from '../../scripts/start-command.cjs';
import { copySqlite, createDatabase, dropDatabase, removeSqlite } from '../lib/databases.mjs';
import { startServer } from '../lib/processes.mjs';
import { COLD_START_QUERIES } from '../operations.mjs';

/**
 * With DATABASE_LOGGING the service logs each statement through pino, one JSON line
 * `{..."context":"TypeORM","sql":"...","msg":"query"}` (or `"msg":"query failed"`); TypeORM's own
 * logger wrote `query: ...` lines, still matched.
 */
const TYPEORM_STATEMENT = /^(query( failed)?:|\{.*"context":"TypeORM".*"msg":"query( failed)?")/gm;

/**
 * `nodeArgs`: Node options put before the service's own (bench/profile.mjs turns on --cpu-prof);
 * `env`: settings over the ones below (bench/compare.mjs sets a build's); `launcher` and
 * `timeoutMs`: see startServer.
 */
function startOurs(
  ctx,
  id,
  databaseUrl,
  {
    logStatements,
    port,
    suffix = '',
    probe = 'health',
    nodeArgs = [],
    env = {},
    launcher,
    timeoutMs,
  },
) {
  return startServer({
    name: id,
    args: [...nodeArgs, ...startOptions(ctx.root), join(ctx.root, 'dist/src/main.js')],
    launcher,
    timeoutMs,
    cwd: ctx.root,
    port,
    probe,
    logFile: join(ctx.tmp, `${id}${suffix}.log`),
    env: {
      ...startEnvironment(ctx.root),
      NODE_ENV: 'production',
      JWT_SECRET: ctx.secret,
      DATABASE_URL: databaseUrl,
      DATABASE_LOGGING: logStatements ? 'true' : 'false',
      // The defaults, whatever a local .env says: a pool of 10, one instance (no Redis), the
      // default cap on requests in flight (twice the pool on PostgreSQL, none on SQLite).
      DATABASE_POOL_SIZE: '10',
      REDIS_URL: '',
      HTTP_MAX_REQUESTS_IN_FLIGHT: '',
      SEED_DEMO: 'false',
      // The write benchmarks sign in as a handful of users and write thousands of times a
      // minute: the per-user write limit (120 a minute by default) would refuse them.
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      PORT: String(port),
      ...env,
    },
  });
}

export function oursSqlite(ctx, { id = 'ours-sqlite', pristine = ctx.sqlitePristine } = {}) {
  const file = join(ctx.tmp, `${id}.sqlite`);
  return {
    id,
    label: 'ours: Nest + TypeORM, SQLite',
    dialect: 'graphql',
    statementPattern: TYPEORM_STATEMENT,
    coldStartQuery: COLD_START_QUERIES.graphql,
    async prepare() {
      copySqlite(pristine, file);
    },
    start: (options) => startOurs(ctx, id, `sqlite:${file}`, options),
    async dispose() {
      removeSqlite(file);
    },
  };
}

export function oursPostgres(ctx) {
  const id = 'ours-pg';
  const database = `${ctx.pgTemplate}_ours`;
  return {
    id,
    label: 'ours: Nest + TypeORM, PostgreSQL',
    dialect: 'graphql',
    statementPattern: TYPEORM_STATEMENT,
    coldStartQuery: COLD_START_QUERIES.graphql,
    async prepare() {
      await createDatabase(ctx.postgres, database, ctx.pgTemplate);
    },
    start: (options) => startOurs(ctx, id, ctx.postgres.url(database), options),
    async dispose() {
      await dropDatabase(ctx.postgres, database);
    },
  };
}
