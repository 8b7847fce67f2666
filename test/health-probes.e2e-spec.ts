import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

import { TestApp } from './helpers/test-app';
import { ShutdownState } from '../src/health/shutdown-state';

/** A port of 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('Liveness and readiness probes (e2e)', () => {
  describe('without Redis', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({ env: { REDIS_URL: undefined } });
    });
    afterAll(() => t.close());

    it('should answer /health/live without checking anything', async () => {
      const response = await t.http.get('/health/live').expect(200);
      expect(response.body).toEqual({ status: 'ok' });
    });

    it('should answer /health/ready and /health with the database checked, and no Redis', async () => {
      for (const path of ['/health/ready', '/health']) {
        const response = await t.http.get(path).expect(200);
        expect(response.body).toMatchObject({
          status: 'ok',
          info: { server: { status: 'up' }, database: { status: 'up' } },
        });
        expect(response.body.details).not.toHaveProperty('redis');
      }
    });

    it('should report not ready, naming the shutdown, once a shutdown has begun', async () => {
      t.app.get(ShutdownState).begin();
      const response = await t.http.get('/health/ready').expect(503);
      expect(response.body).toMatchObject({
        status: 'error',
        error: { server: { status: 'down', message: 'shutting down' } },
        info: { database: { status: 'up' } },
      });
      await t.http.get('/health/live').expect(200);
    });
  });

  describe('with a Redis that is down', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({ env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
    });
    afterAll(() => t.close());

    it('should answer 503 naming redis, within the check timeout', async () => {
      const started = Date.now();
      const response = await t.http.get('/health/ready').expect(503);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(response.body).toMatchObject({
        status: 'error',
        info: { database: { status: 'up' } },
        error: { redis: { status: 'down', message: expect.any(String) } },
      });
    });

    it('should stay live', async () => {
      await t.http.get('/health/live').expect(200);
    });
  });
});
