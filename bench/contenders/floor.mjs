/**
 * The framework floor of bench/floor/server.mjs (NestJS, Fastify, Apollo, TypeORM; one query),
 * on a copy of the same data, with the Node options and environment of our `start:prod`. It
 * answers Q1 only: it is there for its memory and cold start, the part of ours that the
 * frameworks take.
 */
import { join } from 'node:path';

import { startEnvironment, startOptions } from '../../scripts/start-command.cjs';
import { copySqlite, createDatabase, dropDatabase, removeSqlite } from '../lib/databases.mjs';
import { startServer } from '../lib/processes.mjs';
import { COLD_START_QUERIES } from '../operations.mjs';

/** The floor's operations: Q1 alone, as the other contenders send it. */
export const floorOperations = (ops) => ops.filter((op) => op.id === 'Q1');

function startFloor(ctx, id, databaseUrl, { port, suffix = '', probe = 'graphql' }) {
  return startServer({
    name: id,
    args: [...startOptions(ctx.root), join(ctx.root, 'bench/floor/server.mjs')],
    cwd: ctx.root,
    port,
    probe,
    logFile: join(ctx.tmp, `${id}${suffix}.log`),
    env: {
      ...startEnvironment(ctx.root),
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
    },
  });
}

const contender = (id, label) => ({
  id,
  label,
  dialect: 'graphql',
  statementPattern: null,
  coldStartQuery: COLD_START_QUERIES.graphql,
});

export function floorSqlite(ctx) {
  const id = 'floor-sqlite';
  const file = join(ctx.tmp, `${id}.sqlite`);
  return {
    ...contender(id, 'framework floor: Nest + Apollo + TypeORM, one query, SQLite'),
    async prepare() {
      copySqlite(ctx.sqlitePristine, file);
    },
    start: (options) => startFloor(ctx, id, `sqlite:${file}`, options),
    async dispose() {
      removeSqlite(file);
    },
  };
}

export function floorPostgres(ctx) {
  const id = 'floor-pg';
  const database = `${ctx.pgTemplate}_floor`;
  return {
    ...contender(id, 'framework floor: Nest + Apollo + TypeORM, one query, PostgreSQL'),
    async prepare() {
      await createDatabase(ctx.postgres, database, ctx.pgTemplate);
    },
    start: (options) => startFloor(ctx, id, ctx.postgres.url(database), options),
    async dispose() {
      await dropDatabase(ctx.postgres, database);
    },
  };
}
