import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import type { DataSourceOptions, Logger } from 'typeorm';

import { blogEntities, blogMigrations } from '../blog';
import { postgresTypes } from './postgres-types';
import type { DatabaseConfig } from '../config/database.config';
import { ObservedTypeOrmLogger } from '../observability/typeorm-logger';

export interface DataSourceOverrides {
  /** A TypeORM logger that sees every call too, e.g. the statement counter of the e2e tests. */
  logger?: Logger;
  /** Run pending migrations when the connection opens (the app does; the CLI does not). */
  migrationsRun?: boolean;
}

/**
 * The one source of TypeORM options, shared by the app (`TypeOrmModule.forRootAsync`)
 * and the TypeORM CLI (`ormconfig.ts`), so the two cannot drift apart.
 */
export function buildDataSourceOptions(
  config: DatabaseConfig,
  overrides: DataSourceOverrides = {},
): DataSourceOptions {
  const common = {
    entities: blogEntities,
    migrations: blogMigrations,
    migrationsRun: overrides.migrationsRun ?? false,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    // Logs into pino with the request id and traces SQLite statements; DATABASE_LOGGING logs
    // every statement (never its parameters).
    logger: new ObservedTypeOrmLogger({
      database: config.type,
      logStatements: config.logging,
      next: overrides.logger,
    }),
  };
  if (config.type === 'postgres') {
    return {
      ...common,
      type: 'postgres',
      url: config.url,
      poolSize: config.poolSize,
      extra: { statement_timeout: config.statementTimeoutMs || undefined, types: postgresTypes() },
    };
  }
  const inMemory = config.path === ':memory:';
  if (!inMemory) mkdirSync(dirname(config.path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: config.path,
    enableWAL: !inMemory,
    timeout: 5000,
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      db.pragma('synchronous = NORMAL');
    },
  };
}
