import { setTimeout as sleep } from 'node:timers/promises';

import { describeConnectionError, isPermanentConnectionError } from './connection-errors';
import { DatabaseConfig } from '../config/database.config';
import { InvalidEnvironmentError } from '../config/env';

/** @nestjs/typeorm's own schedule for the app's connection, kept for the check before it. */
export const DATABASE_RETRY = { attempts: 10, delayMs: 3000 };

/**
 * Connects once to PostgreSQL before the app starts, so that a `DATABASE_URL` the server refuses
 * for good (no such database, role or host, a wrong password) stops the start-up at once with one
 * line, while a server that is not up yet is waited for, `retry.attempts` times `retry.delayMs`
 * apart. SQLite needs no wait.
 */
export async function waitForDatabase(
  config: DatabaseConfig,
  onRetry: (reason: string, attempt: number, attempts: number) => void,
  retry = DATABASE_RETRY,
): Promise<void> {
  if (config.type !== 'postgres') return;
  for (let attempt = 1; ; attempt += 1) {
    const error = await connectionError(config.url);
    if (error === null) return;
    const reason = describeConnectionError(error);
    if (isPermanentConnectionError(error)) {
      throw new InvalidEnvironmentError('DATABASE_URL', `connecting fails for good: ${reason}`);
    }
    if (attempt >= retry.attempts) {
      const seconds = ((retry.attempts - 1) * retry.delayMs) / 1000;
      throw new InvalidEnvironmentError(
        'DATABASE_URL',
        `no connection after ${retry.attempts} attempts over ${seconds} s: ${reason}`,
      );
    }
    onRetry(reason, attempt, retry.attempts);
    await sleep(retry.delayMs);
  }
}

async function connectionError(url: string): Promise<unknown> {
  // Required here, not imported, so that a service on SQLite never loads the PostgreSQL driver.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client } = require('pg') as typeof import('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  // A server that drops the connection later must not crash the process.
  client.on('error', () => {});
  try {
    await client.connect();
    return null;
  } catch (error) {
    return error;
  } finally {
    await client.end().catch(() => {});
  }
}
