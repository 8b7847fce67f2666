import { TestApp } from './helpers/test-app';

describe('GET /health (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('should answer 200 with the database checked', async () => {
    const response = await t.http.get('/health').expect(200);
    expect(response.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
  });

  it('should answer 503 when the database is unreachable', async () => {
    await t.dataSource.destroy();
    const response = await t.http.get('/health').expect(503);
    expect(response.body).toMatchObject({
      status: 'error',
      error: { database: { status: 'down' } },
    });
  });
});
