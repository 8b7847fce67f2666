// Tracing first: OpenTelemetry must patch http, graphql and pg before they are required. (Load
// .env, if at all, before this line, so that OTEL_* variables in it count.)
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
} from './config';
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
  app.enableShutdownHooks();
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
