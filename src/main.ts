import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { InvalidEnvironmentError, loadAppConfig } from './config';

async function bootstrap(): Promise<void> {
  const { port, trustProxy } = loadAppConfig();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot());
  app.set('trust proxy', trustProxy);
  app.enableShutdownHooks();
  await app.listen(port);
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
