/** Fastify 5 + Mercurius with graphql-jit (bench/mercurius), on a copy of the same SQLite file. */
import { sqliteServer } from './baseline.mjs';

export function mercurius(ctx, { id = 'mercurius', pristine = ctx.sqlitePristine } = {}) {
  return sqliteServer(ctx, {
    id,
    label: 'Fastify 5 + Mercurius + JIT + DataLoader, SQLite',
    script: 'bench/mercurius/server.mjs',
    pristine,
  });
}
