/* eslint-disable import/order -- the order of these imports is the order of start-up. */
// A Node.js too old for the native addons stops here with a message, not a crash later.
import { unsupportedNodeReason } from './config/node-version';

const unsupportedNode = unsupportedNodeReason();
if (unsupportedNode) {
  console.error(unsupportedNode);
  process.exit(1);
}
// Then .env, so that every variable in it counts (PORT, HOST, TRUST_PROXY and OTEL_* are read
// before the ConfigModule); then tracing: OpenTelemetry must patch http, graphql and pg before
// they are required.
loadEnvFile();
import './observability/tracing';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { AppModule } from './app.module';
import {
  InvalidEnvironmentError,
  loadAppConfig,
  loadHttpConfig,
  loadObservabilityConfig,
  loadShutdownConfig,
} from './config';
import { loadEnvFile } from './config/env-file';
import { enableGracefulShutdown } from './health/graceful-shutdown';
import { createFastifyAdapter, configureApp } from './http/fastify-adapter';
import { createLogger, PinoLoggerService } from './observability';

async function bootstrap(): Promise<void> {
  const appConfig = loadAppConfig();
  const { port, host } = appConfig;
  const http = loadHttpConfig();
  const logger = createLogger(loadObservabilityConfig());
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(),
    createFastifyAdapter(appConfig, http, logger),
    { logger: new PinoLoggerService(logger) },
  );
  configureApp(app, http);
  enableGracefulShutdown(app, loadShutdownConfig().timeoutMs);
  await app.listen(port, host);
  new Logger('Bootstrap').log(`GraphQL API ready at http://localhost:${port}/graphql`);
}

bootstrap().catch((error: unknown) => {
  if (error instanceof InvalidEnvironmentError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
