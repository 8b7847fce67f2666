/** Fastify 5 + Mercurius with graphql-jit (bench/mercurius), on a copy of the same SQLite file. */
import { join } from 'node:path';
import { copySqlite, removeSqlite } from '../lib/databases.mjs';
import { startServer } from '../lib/processes.mjs';

export function mercurius(ctx, { id = 'mercurius', pristine = ctx.sqlitePristine } = {}) {
  const file = join(ctx.tmp, `${id}.sqlite`);
  return {
    id,
    label: 'Fastify 5 + Mercurius + JIT + DataLoader, SQLite',
    dialect: 'graphql',
    statementPattern: /^query:/gm,
    async prepare() {
      copySqlite(pristine, file);
    },
    start: ({ logStatements, port, suffix = '' }) =>
      startServer({
        name: id,
        args: [join(ctx.root, 'bench/mercurius/server.mjs')],
        cwd: ctx.root,
        port,
        probe: 'graphql',
        logFile: join(ctx.tmp, `${id}${suffix}.log`),
        env: {
          NODE_ENV: 'production',
          JWT_SECRET: ctx.secret,
          DATABASE_PATH: file,
          BENCH_SQL_LOG: logStatements ? 'true' : 'false',
          PORT: String(port),
        },
      }),
    async dispose() {
      removeSqlite(file);
    },
  };
}
