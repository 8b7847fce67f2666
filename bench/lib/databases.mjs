import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

/** A fresh copy of a SQLite database file (with its WAL side files removed). */
export function copySqlite(from, to) {
  removeSqlite(to);
  copyFileSync(from, to);
  return to;
}

export function removeSqlite(path) {
  for (const suffix of ['', '-wal', '-shm', '-journal'])
    rmSync(`${path}${suffix}`, { force: true });
}

const PG_HOST = '127.0.0.1';
const PG_PORT = 5432;

/**
 * The local PostgreSQL server, if one accepts us: tries the users root and postgres (trust
 * authentication, no password). Returns { user, url(database) } or null with the reason.
 */
export async function detectPostgres() {
  const reasons = [];
  for (const user of ['root', 'postgres']) {
    const client = new Client({
      host: PG_HOST,
      port: PG_PORT,
      user,
      database: 'postgres',
      connectionTimeoutMillis: 3000,
    });
    try {
      await client.connect();
      const { rows } = await client.query('SHOW server_version');
      await client.end();
      return {
        user,
        version: rows[0].server_version,
        url: (database) => `postgres://${user}@${PG_HOST}:${PG_PORT}/${database}`,
      };
    } catch (error) {
      reasons.push(`${user}: ${error.message}`);
      await client.end().catch(() => {});
    }
  }
  return { unavailable: `no PostgreSQL at ${PG_HOST}:${PG_PORT} (${reasons.join('; ')})` };
}

async function admin(postgres, work) {
  const client = new Client({ connectionString: postgres.url('postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const quoteIdent = (name) => `"${name.replace(/"/g, '""')}"`;

/** Creates a database, as a copy of `template` when given (PostgreSQL copies the files). */
export function createDatabase(postgres, name, template) {
  return admin(postgres, (client) =>
    client.query(
      `CREATE DATABASE ${quoteIdent(name)}${template ? ` TEMPLATE ${quoteIdent(template)}` : ''}`,
    ),
  );
}

/** Whether a database of that name exists. */
export async function databaseExists(postgres, name) {
  const { rows } = await admin(postgres, (client) =>
    client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]),
  );
  return rows.length > 0;
}

export function dropDatabase(postgres, name) {
  return admin(postgres, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
  );
}

/** Runs a SQL script (several statements) on a database. */
export async function runSqlScript(url, sql) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
