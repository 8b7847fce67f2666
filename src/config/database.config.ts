import { join } from 'node:path';

import { registerAs } from '@nestjs/config';

import { loadAppConfig } from './app.config';
import { InvalidEnvironmentError, readBoolean, readInteger, readOptionalString } from './env';
import { SETTINGS } from './settings.schema';

export type DatabaseConfig =
  | {
      type: 'sqlite';
      path: string;
      readWorkers: number;
      statementTimeoutMs: number;
      logging: boolean;
    }
  | {
      type: 'postgres';
      url: string;
      poolSize: number;
      statementTimeoutMs: number;
      logging: boolean;
    };

export const DEFAULT_SQLITE_FILE = 'blog.sqlite';

/**
 * Reads `DATABASE_URL`: unset means the SQLite file under the data folder,
 * `sqlite:<path>` or `sqlite::memory:` another SQLite database, `postgres://...` PostgreSQL.
 */
export function loadDatabaseConfig(env: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  const url = readOptionalString(env, SETTINGS.DATABASE_URL);
  const logging = readBoolean(env, SETTINGS.DATABASE_LOGGING);
  const statementTimeoutMs = readInteger(env, SETTINGS.DATABASE_STATEMENT_TIMEOUT_MS);
  const sqlite = (path: string): DatabaseConfig => ({
    type: 'sqlite',
    path,
    readWorkers: readInteger(env, SETTINGS.DATABASE_READ_WORKERS),
    statementTimeoutMs,
    logging,
  });
  if (url === undefined) return sqlite(join(loadAppConfig(env).dataDir, DEFAULT_SQLITE_FILE));
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '') throw new InvalidEnvironmentError('DATABASE_URL', 'sqlite: needs a file path');
    return sqlite(path);
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const problem = postgresUrlProblem(url);
    if (problem) {
      throw new InvalidEnvironmentError(
        'DATABASE_URL',
        `${problem}; expected postgres://user:password@host:5432/database, with special ` +
          'characters of the user, password or database percent-encoded',
      );
    }
    return {
      type: 'postgres',
      url,
      poolSize: readInteger(env, SETTINGS.DATABASE_POOL_SIZE),
      statementTimeoutMs,
      logging,
    };
  }
  throw new InvalidEnvironmentError(
    'DATABASE_URL',
    'expected sqlite:<path>, sqlite::memory: or postgres://...',
  );
}

/**
 * Why the PostgreSQL driver could not use `url`, or null. The URL itself is never quoted: it may
 * hold a password.
 */
function postgresUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'the URL does not parse';
  }
  try {
    [parsed.username, parsed.password, parsed.pathname].forEach((part) => decodeURIComponent(part));
  } catch {
    return 'the URL holds a % that does not start a percent-encoded character';
  }
  return null;
}

export const databaseConfig = registerAs('database', () => loadDatabaseConfig());
