import type { AddressInfo } from 'node:net';

import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';

import { HostAppModule } from '../../examples/host-app/host-app.module';

/**
 * examples/host-app booted as its main.ts boots it (Express, the host's own roots) on
 * `databaseUrl`, listening on a free loopback port. The environment is restored once the module
 * has read it.
 */
export async function startHostApp(
  databaseUrl: string,
): Promise<{ app: INestApplication; origin: string }> {
  const saved = { ...process.env };
  process.env.DATABASE_URL = databaseUrl;
  let app: INestApplication;
  try {
    const moduleRef = await Test.createTestingModule({ imports: [HostAppModule] }).compile();
    app = moduleRef.createNestApplication({ logger: ['error', 'warn'] });
    await app.listen(0, '127.0.0.1');
  } finally {
    process.env = saved;
  }
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, origin: `http://127.0.0.1:${port}` };
}
