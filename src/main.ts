/* eslint-disable import/order -- the order of these imports is the order of start-up. */
// First the Node.js version and .env; then tracing: OpenTelemetry must patch http, graphql and pg
// before they are required.
import { envFileNames } from './config/start-up';
import './observability/tracing';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { AppModule } from './app.module';
import {
  InvalidEnvironmentError,
  loadAppConfig,
  loadDatabaseConfig,
  loadHttpConfig,
  loadObservabilityConfig,
  loadShutdownConfig,
  validateEnvironment,
} from './config';
import { resolveHost } from './config/host';
import { refuseMisspeltSettings } from './config/settings';
import { waitForDatabase } from './database/wait-for-database';
import { enableGracefulShutdown } from './health/graceful-shutdown';
import { releaseStartUpMemory } from './health/start-up-memory';
import { createFastifyAdapter, configureApp } from './http/fastify-adapter';
import { createLogger, PinoLoggerService } from './observability';

async function bootstrap(): Promise<void> {
  // Every setting is checked before anything starts: a bad one is one line and exit 1.
  refuseMisspeltSettings(envFileNames);
  validateEnvironment(process.env);
  const appConfig = loadAppConfig();
  const { port, host } = appConfig;
  await resolveHost(host);
  const http = loadHttpConfig();
  const logger = createLogger(loadObservabilityConfig());
  await waitForDatabase(loadDatabaseConfig(), (reason, attempt, attempts) =>
    logger.warn(`Database not reachable yet (attempt ${attempt} of ${attempts}): ${reason}`),
  );
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(),
    createFastifyAdapter(appConfig, http, logger),
    { logger: new PinoLoggerService(logger) },
  );
  configureApp(app, http);
  enableGracefulShutdown(app, loadShutdownConfig().timeoutMs);
  await app.listen(port, host).catch((error: unknown) => {
    throw listenError(error, port, host);
  });
  await releaseStartUpMemory();
  new Logger('Bootstrap').log(`GraphQL API ready at http://localhost:${port}/graphql`);
}

/** A refused listen as the setting to change, or the error itself. */
function listenError(error: unknown, port: number, host: string): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new InvalidEnvironmentError('PORT', `${port} is already in use on ${host}`);
    case 'EACCES':
      return new InvalidEnvironmentError('PORT', `listening on ${port} needs privileges`);
    case 'EADDRNOTAVAIL':
      return new InvalidEnvironmentError('HOST', `${host} is not an address of this machine`);
    default:
      return error;
  }
}

bootstrap().catch((error: unknown) => {
  if (error instanceof InvalidEnvironmentError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
