import { randomBytes } from 'node:crypto';

import { Client } from 'pg';
import { DataSource } from 'typeorm';

/** The database the e2e suites run on: SQLite always, PostgreSQL in the e2e-postgres project. */
export const testDatabase = (): 'sqlite' | 'postgres' =>
  process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

async function onServer(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh PostgreSQL database for one suite, next to the one TEST_POSTGRES_URL names, so that
 * suites never see each other's rows. Returns its URL and a function that drops it.
 */
export async function createPostgresDatabase(): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  const base = process.env.TEST_POSTGRES_URL;
  if (!base) throw new Error('TEST_POSTGRES_URL is not set');
  const name = `blog_e2e_${randomBytes(6).toString('hex')}`;
  await onServer(base, `CREATE DATABASE "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** Makes every DELETE on `table` fail, to prove a transaction leaves nothing half done. */
export async function refuseDeletes(
  dataSource: DataSource,
  table: string,
): Promise<() => Promise<void>> {
  if (dataSource.options.type === 'postgres') {
    await dataSource.query(
      `CREATE FUNCTION refuse_delete() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`,
    );
    await dataSource.query(
      `CREATE TRIGGER refuse_delete BEFORE DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_delete()`,
    );
    return async () => {
      await dataSource.query(`DROP TRIGGER refuse_delete ON ${table}`);
      await dataSource.query('DROP FUNCTION refuse_delete()');
    };
  }
  await dataSource.query(
    `CREATE TRIGGER refuse_delete BEFORE DELETE ON ${table} BEGIN SELECT RAISE(ABORT, 'refused'); END`,
  );
  return async () => {
    await dataSource.query('DROP TRIGGER refuse_delete');
  };
}
