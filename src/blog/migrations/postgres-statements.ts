import type { QueryRunner } from 'typeorm';

/**
 * PostgreSQL: lets the rest of the migration's transaction run past the connection's statement
 * timeout (`DATABASE_STATEMENT_TIMEOUT_MS`, 10 s by default). That timeout bounds a request;
 * indexing or rewriting every post takes longer on a large blog (17 s for the index of prefixes
 * at 100,000 posts), runs once, and would otherwise stop the service from starting. Each
 * migration runs in its own transaction, so the timeout is back for the next one.
 */
export async function liftStatementTimeout(queryRunner: QueryRunner): Promise<void> {
  if (queryRunner.connection.driver.options.type !== 'postgres') return;
  await queryRunner.query('SET LOCAL statement_timeout = 0');
}

/**
 * Runs a migration's PostgreSQL statements in order, past the statement timeout (see
 * {@link liftStatementTimeout}); nothing on SQLite.
 */
export async function runOnPostgres(
  queryRunner: QueryRunner,
  statements: readonly string[],
): Promise<void> {
  if (queryRunner.connection.driver.options.type !== 'postgres') return;
  await liftStatementTimeout(queryRunner);
  for (const sql of statements) await queryRunner.query(sql);
}
