#!/usr/bin/env node
/**
 * PostGraphile 4 over the service's PostgreSQL tables, as a contender of the load benchmark.
 * Lives in bench/peers so that it resolves its own graphql 15 (installed by the benchmark with
 * `npm ci --prefix bench/peers`).
 *
 *   DATABASE_URL=postgres://... JWT_SECRET=... PORT=5000 node bench/peers/postgraphile-server.mjs
 *
 * DEBUG=postgraphile:postgres logs each SQL statement (the benchmark counts them).
 */
import { createServer } from 'node:http';

import pg from 'pg';
import { postgraphile } from 'postgraphile';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

const handler = postgraphile(pool, ['public'], {
  // Production settings: no GraphiQL, no watch, no query log, no stack traces.
  graphiql: false,
  watchPg: false,
  disableQueryLog: true,
  extendedErrors: [],
  showErrorStack: false,
  retryOnInitFail: false,
  setofFunctionsContainNulls: false,
  ignoreRBAC: true,
  legacyRelations: 'omit',
  // Our tokens are HS256 `{ sub, exp }`; PostGraphile would otherwise demand aud=postgraphile.
  jwtSecret: process.env.JWT_SECRET,
  jwtVerifyOptions: { algorithms: ['HS256'], audience: [] },
});

// The benchmark waits for a `{ __typename }` answer, i.e. for the introspected schema.
const server = createServer(handler);
server.listen(Number(process.env.PORT ?? 5000), '127.0.0.1', () => {
  console.log(`PostGraphile ready at http://127.0.0.1:${server.address().port}/graphql`);
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close();
    pool.end().finally(() => process.exit(0));
  });
}
