import { TestApp } from './helpers/test-app';

/** Needs a Redis that answers: runs when TEST_REDIS_URL is set, on either database. */
const describeWithRedis = process.env.TEST_REDIS_URL ? describe : describe.skip;

/** Readiness with Redis up (a Redis that is down: health-probes.e2e-spec.ts). */
describeWithRedis('Readiness with Redis (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ env: { REDIS_URL: process.env.TEST_REDIS_URL } });
  });
  afterAll(() => t?.close());

  it('should answer 200 with the database and Redis checked', async () => {
    const response = await t.http.get('/health/ready').expect(200);
    expect(response.body).toMatchObject({
      status: 'ok',
      info: { server: { status: 'up' }, database: { status: 'up' }, redis: { status: 'up' } },
    });
  });
});
