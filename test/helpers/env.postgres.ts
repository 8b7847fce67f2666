// The e2e-postgres project: every TestApp gets a PostgreSQL database of its own.
process.env.TEST_DB = 'postgres';
