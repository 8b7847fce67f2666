// Every e2e suite starts from the same known environment, whatever a developer's .env holds.
process.env.NODE_ENV = 'test';
process.env.JWT_SECRET = 'e2e-secret-that-is-long-enough-for-hs256-keys';
process.env.JWT_EXPIRES_IN = '1h';
process.env.SEED_DEMO = 'false';
process.env.DATABASE_LOGGING = 'false';
// Suites sign up many users from one address; the suites about the limit (limits,
// rate-limits, password-checks-limit, sign-up-enumeration, redis-pubsub) set their own.
process.env.AUTH_RATE_LIMIT = '100000';
// Their fresh accounts write at once, so new accounts get the whole write allowance; the suite
// about new-account friction (roles-and-review) sets its own.
process.env.NEW_ACCOUNT_HOURS = '0';
// Repeated queries are queued for compiling after their first run, so the suites also exercise
// graphql-jit's path; test/differential/ holds it against graphql-js.
process.env.GRAPHQL_JIT = 'true';
process.env.GRAPHQL_JIT_COMPILE_AFTER = '0';
delete process.env.DATABASE_URL;
delete process.env.PORT;
