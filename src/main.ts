import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { InvalidEnvironmentError, loadAppConfig } from './config';

async function bootstrap(): Promise<void> {
  const { port } = loadAppConfig();
  const app = await NestFactory.create(AppModule.forRoot());
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
