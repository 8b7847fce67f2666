import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { InvalidEnvironmentError, loadAppConfig, loadHttpConfig } from './config';
import { createFastifyAdapter, configureApp } from './http/fastify-adapter';

async function bootstrap(): Promise<void> {
  const appConfig = loadAppConfig();
  const { port, host } = appConfig;
  const http = loadHttpConfig();
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(),
    createFastifyAdapter(appConfig, http),
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
