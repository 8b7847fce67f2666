/** The plain Apollo Server 5 baseline of bench/baseline, on a copy of the same SQLite file. */
import { join } from 'node:path';

import { indexPostsAsWritten } from '../generate.mjs';
import { copySqlite, removeSqlite } from '../lib/databases.mjs';
import { startServer } from '../lib/processes.mjs';
import { COLD_START_QUERIES } from '../operations.mjs';

/**
 * A contender that is one of the bench's own servers (`script`, relative to the repository) on a
 * copy of the SQLite data (with the search index written as each post is: see
 * indexPostsAsWritten), printing its statements as `query: ...` when asked to. `nodeArgs` of
 * `start` are Node options put before the script (bench/profile.mjs turns on --cpu-prof).
 */
export function sqliteServer(ctx, { id, label, script, pristine = ctx.sqlitePristine }) {
  const file = join(ctx.tmp, `${id}.sqlite`);
  return {
    id,
    label,
    dialect: 'graphql',
    statementPattern: /^query:/gm,
    coldStartQuery: COLD_START_QUERIES.graphql,
    async prepare() {
      copySqlite(pristine, file);
      await indexPostsAsWritten(`sqlite:${file}`);
    },
    start: ({
      logStatements,
      port,
      suffix = '',
      probe = 'graphql',
      nodeArgs = [],
      launcher,
      timeoutMs,
    }) =>
      startServer({
        name: id,
        args: [...nodeArgs, join(ctx.root, script)],
        launcher,
        timeoutMs,
        cwd: ctx.root,
        port,
        probe,
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

export function baseline(ctx, { id = 'apollo', pristine = ctx.sqlitePristine } = {}) {
  return sqliteServer(ctx, {
    id,
    label: 'plain Apollo 5 + DataLoader, SQLite',
    script: 'bench/baseline/server.mjs',
    pristine,
  });
}
