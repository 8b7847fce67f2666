import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { InvalidEnvironmentError, loadAppConfig } from './config';

async function bootstrap(): Promise<void> {
  const { port, host, trustProxy } = loadAppConfig();
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(),
    // Fastify takes a hop count too; its adapter's typings omit it.
    new FastifyAdapter({ trustProxy: (trustProxy || false) as boolean }),
  );
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
