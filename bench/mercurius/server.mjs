#!/usr/bin/env node
/**
 * The fastest plain stack a user could write instead of our service: Fastify 5 + Mercurius with
 * graphql-jit (each query compiled after its first run), the plain Apollo baseline's schema,
 * hand-written resolvers and per-request DataLoaders (bench/baseline), over the same SQLite file
 * with the same SQL.
 *
 *   DATABASE_PATH=blog.sqlite JWT_SECRET=... PORT=4000 node bench/mercurius/server.mjs
 *
 * BENCH_SQL_LOG=true prints every statement as `query: <sql>` (the benchmark counts them).
 */
import { createRequire } from 'node:module';

import { resolvers, typeDefs } from '../baseline/schema.mjs';
import { createLoaders, Store } from '../baseline/store.mjs';
import { verifyToken } from '../lib/jwt.mjs';

const require = createRequire(import.meta.url);
const Fastify = require('fastify');
const { NoSchemaIntrospectionCustomRule } = require('graphql');
const mercurius = require('mercurius');

const secret = process.env.JWT_SECRET ?? '';
if (secret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
const store = new Store(process.env.DATABASE_PATH, {
  logStatements: process.env.BENCH_SQL_LOG === 'true',
});

const UNAUTHENTICATED = {
  errors: [
    {
      message: 'The access token is invalid or has expired.',
      extensions: { code: 'UNAUTHENTICATED' },
    },
  ],
};

const app = Fastify({ logger: false });

// The signed-in user, before Mercurius runs: a bad token is a 401 with a GraphQL error, as in
// the Apollo baseline.
app.decorateRequest('viewer', null);
app.addHook('preHandler', async (request, reply) => {
  const header = request.headers.authorization?.trim();
  if (!header) return;
  const userId = verifyToken(secret, header.replace(/^bearer\s+/i, ''));
  request.viewer = userId ? store.userById(userId) : null;
  if (!request.viewer) return reply.code(401).send(UNAUTHENTICATED);
});

// Apollo Server, and so our service, ends each JSON response with a newline: the same bytes.
app.addHook('onSend', (_request, _reply, payload, done) =>
  done(null, typeof payload === 'string' ? `${payload}\n` : payload),
);

await app.register(mercurius, {
  schema: typeDefs,
  resolvers,
  // Compile each query with graphql-jit from its second run on.
  jit: 1,
  graphiql: false,
  // No introspection, as in the Apollo baseline and our service in production.
  validationRules: [NoSchemaIntrospectionCustomRule],
  context: (request) => ({
    store,
    viewer: request.viewer,
    loaders: createLoaders(store, request.viewer),
  }),
});

const address = await app.listen({ port: Number(process.env.PORT ?? 4000), host: '127.0.0.1' });
console.log(`Mercurius + JIT baseline ready at ${address}/graphql`);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, async () => {
    await app.close();
    store.db.close();
    process.exit(0);
  });
}
