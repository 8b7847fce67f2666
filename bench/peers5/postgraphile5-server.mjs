#!/usr/bin/env node
/**
 * PostGraphile 5 (Grafast) over the service's PostgreSQL tables, as a contender of the load
 * benchmark, configured for production as its documentation recommends: the Amber preset with
 * the simplified inflection, no GraphiQL (Ruru), no watch mode, no explain, grafserv on
 * node:http and a pg pool of 10. Lives in bench/peers5 so that it resolves its own graphql and
 * pg (installed by the benchmark with `npm ci --prefix bench/peers5`).
 *
 *   DATABASE_URL=postgres://... JWT_SECRET=... PORT=5000 node bench/peers5/postgraphile5-server.mjs
 *
 * BENCH_SQL_LOG=true prints every statement the pool's connections send, its begin,
 * set_config and commit included, as `query: <sql>` (the benchmark counts them).
 */
import { createServer } from 'node:http';

import { PgSimplifyInflectionPreset } from '@graphile/simplify-inflection';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';

import { verifyToken } from '../lib/jwt.mjs';

const secret = process.env.JWT_SECRET ?? '';
if (secret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
if (process.env.BENCH_SQL_LOG === 'true') {
  pool.on('connect', (client) => {
    const query = client.query;
    client.query = function loggedQuery(config, ...rest) {
      const text = typeof config === 'string' ? config : config?.text;
      process.stdout.write(`query: ${String(text).replace(/\s+/g, ' ')}\n`);
      return query.call(this, config, ...rest);
    };
  });
}

/**
 * The viewer, from an HS256 `{ sub, exp }` token as the service issues them, becomes the
 * transaction setting jwt.claims.sub that bench/peers/postgraphile-api.sql reads (PostGraphile
 * 4's convention). PostGraphile 5 leaves tokens to the host; its docs advise doing it here
 * rather than through its lazy-jwt preset.
 */
function context(requestContext) {
  const header = requestContext.node?.req?.headers?.authorization;
  if (!header) return {};
  const sub = verifyToken(secret, header.replace(/^bearer\s+/i, ''));
  if (!sub) {
    throw Object.assign(new Error('The access token is invalid or has expired.'), {
      statusCode: 401,
    });
  }
  return { pgSettings: { 'jwt.claims.sub': sub } };
}

const preset = {
  extends: [PostGraphileAmberPreset, PgSimplifyInflectionPreset],
  pgServices: [makePgService({ pool, schemas: ['public'] })],
  grafserv: { graphqlPath: '/graphql', graphiql: false, watch: false, websockets: false },
  grafast: { explain: false, context },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
await serv.addTo(server, false);
// Builds the schema before listening: the benchmark's first `{ __typename }` then finds it ready.
await pgl.getSchema();
server.listen(Number(process.env.PORT ?? 5000), '127.0.0.1', () => {
  console.log(`PostGraphile 5 ready at http://127.0.0.1:${server.address().port}/graphql`);
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close();
    Promise.all([pgl.release(), pool.end()]).finally(() => process.exit(0));
  });
}
