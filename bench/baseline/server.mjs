#!/usr/bin/env node
/**
 * The baseline a user could write instead of our service: a plain Apollo Server 5 (no Nest, no
 * ORM) started with startStandaloneServer, hand-written resolvers and DataLoader over the same
 * SQLite file with the same SQL.
 *
 *   DATABASE_PATH=blog.sqlite JWT_SECRET=... PORT=4000 node bench/baseline/server.mjs
 *
 * BENCH_SQL_LOG=true prints every statement as `query: <sql>` (the benchmark counts them).
 */
import { createRequire } from 'node:module';

import { resolvers, typeDefs } from './schema.mjs';
import { createLoaders, Store } from './store.mjs';
import { verifyToken } from '../lib/jwt.mjs';

const require = createRequire(import.meta.url);
const { ApolloServer } = require('@apollo/server');
const { startStandaloneServer } = require('@apollo/server/standalone');
const { GraphQLError } = require('graphql');

const secret = process.env.JWT_SECRET ?? '';
if (secret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
const store = new Store(process.env.DATABASE_PATH, {
  logStatements: process.env.BENCH_SQL_LOG === 'true',
});

const unauthenticated = () =>
  new GraphQLError('The access token is invalid or has expired.', {
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
  });

/** The signed-in user of a request (null when anonymous) and fresh loaders. */
async function context({ req }) {
  const header = req.headers.authorization?.trim();
  let viewer = null;
  if (header) {
    const userId = verifyToken(secret, header.replace(/^bearer\s+/i, ''));
    viewer = userId ? store.userById(userId) : null;
    if (!viewer) throw unauthenticated();
  }
  return { store, viewer, loaders: createLoaders(store, viewer) };
}

const server = new ApolloServer({
  typeDefs,
  resolvers,
  introspection: false,
  includeStacktraceInErrorResponses: false,
});
const { url } = await startStandaloneServer(server, {
  listen: { port: Number(process.env.PORT ?? 4000), host: '127.0.0.1' },
  context,
});
console.log(`Plain Apollo baseline ready at ${url}`);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, async () => {
    await server.stop();
    store.db.close();
    process.exit(0);
  });
}
