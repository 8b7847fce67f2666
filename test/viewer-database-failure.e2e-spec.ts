import { CapturedLogs } from './helpers/logs';
import { TestApp, TestUser } from './helpers/test-app';

/**
 * A signed-in request whose viewer cannot be read because the database failed: a server error,
 * logged, never UNAUTHENTICATED (clients sign their users out on that code).
 */
describe('A database failure while reading the viewer (e2e)', () => {
  let t: TestApp;
  let viewer: TestUser;
  const logs = new CapturedLogs();

  beforeAll(async () => {
    t = await TestApp.start({ logs });
    viewer = await t.signUp();
    // The users table is gone: every read of the viewer fails in the database.
    await t.dataSource.query('ALTER TABLE users RENAME TO users_gone');
  });
  afterAll(() => t?.close());

  it('should answer INTERNAL_SERVER_ERROR, not UNAUTHENTICATED, and log the cause', async () => {
    const response = await t.http
      .post('/graphql')
      .set('authorization', viewer.token)
      .set('x-request-id', 'viewer-db-failure-1')
      .send({ query: '{ me { id } }' });

    expect(response.body.data?.me ?? null).toBeNull();
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0]).toMatchObject({
      message: 'Internal server error.',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    const [logged] = await logs.find({ requestId: 'viewer-db-failure-1', level: 'error' });
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toMatch(/users/);
  });

  it('should still answer an anonymous request that needs no user', async () => {
    const response = await t.gql('{ __typename }');
    expect(response).toEqual({ data: { __typename: 'Query' } });
  });
});
