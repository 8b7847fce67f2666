/**
 * Our service, production build (dist/), on SQLite or PostgreSQL: started as in production,
 * with migrations on start (a no-op on the generated data) and no demo seed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { copySqlite, createDatabase, dropDatabase, removeSqlite } from '../lib/databases.mjs';
import { startServer } from '../lib/processes.mjs';
import { COLD_START_QUERIES } from '../operations.mjs';

/**
 * With DATABASE_LOGGING the service logs each statement through pino, one JSON line
 * `{..."context":"TypeORM","sql":"...","msg":"query"}` (or `"msg":"query failed"`); TypeORM's own
 * logger wrote `query: ...` lines, still matched.
 */
const TYPEORM_STATEMENT = /^(query( failed)?:|\{.*"context":"TypeORM".*"msg":"query( failed)?")/gm;

/** The command of `npm run start:prod`, in the package.json of `root`. */
function startCommand(root) {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const command = /^((?:\s*\w+=\S*)*)\s*node((?:\s+--\S+)*)\s+dist\/src\/main\.js$/.exec(
    scripts['start:prod'].trim(),
  );
  if (!command) throw new Error('start:prod does not run node dist/src/main.js');
  return { assignments: command[1], options: command[2] };
}

/**
 * Node's options in `npm run start:prod` (V8's memory settings), so that it runs as deployed
 * (the framework floor of floor.mjs runs with them too).
 */
export function startOptions(root) {
  return startCommand(root).options.split(/\s+/).filter(Boolean);
}

/**
 * The environment that `npm run start:prod` sets before `node` (glibc's malloc settings), but
 * NODE_ENV, which each contender sets itself.
 */
export function startEnvironment(root) {
  const env = {};
  for (const assignment of startCommand(root).assignments.split(/\s+/).filter(Boolean)) {
    const at = assignment.indexOf('=');
    env[assignment.slice(0, at)] = assignment.slice(at + 1);
  }
  delete env.NODE_ENV;
  return env;
}

/**
 * `nodeArgs`: Node options put before the service's own (bench/profile.mjs turns on --cpu-prof);
 * `env`: settings over the ones below (bench/compare.mjs sets a build's).
 */
function startOurs(
  ctx,
  id,
  databaseUrl,
  { logStatements, port, suffix = '', probe = 'health', nodeArgs = [], env = {} },
) {
  return startServer({
    name: id,
    args: [...nodeArgs, ...startOptions(ctx.root), join(ctx.root, 'dist/src/main.js')],
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
