// The host-app example: `npm run example:host-app`, then open http://localhost:3001/graphql.
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { HostAppModule } from './host-app.module';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(HostAppModule);
  // On SIGTERM or SIGINT: close the app (WebSockets, HTTP server, database), then exit 0.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  const port = Number(process.env.PORT ?? 3001);
  await app.listen(port);
  new Logger('HostApp').log(`Greetings and the blog at http://localhost:${port}/graphql`);
}

bootstrap().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
