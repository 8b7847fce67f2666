import { Client } from 'graphql-ws';
import { CREATE_POST } from './helpers/documents';
import { TestApp } from './helpers/test-app';
import { collect, settle, wsClient } from './helpers/ws-client';

/**
 * Two instances of the service on one PostgreSQL database and one Redis: an event published on
 * one reaches a subscriber connected to the other. Runs in the e2e-postgres project when
 * TEST_REDIS_URL is set.
 */
describe('Subscriptions across instances through Redis (e2e)', () => {
  let a: TestApp;
  let b: TestApp;
  let client: Client;

  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL };
    a = await TestApp.start({ env });
    b = await TestApp.start({ env, shareDatabaseOf: a });
  });
  afterAll(async () => {
    await client?.dispose();
    await b?.close();
    await a?.close();
  });

  it('should deliver a post created on instance A to a subscriber on instance B', async () => {
    const { ws } = await b.listen();
    client = wsClient(ws).client;
    const events = collect(client, `subscription { postCreated { id title author { name } } }`);
    await settle(500);

    const writer = await a.signUp({ name: 'Writer on A' });
    const { createPost } = await a.data(
      CREATE_POST,
      { input: { title: 'Across', content: 'Redis' } },
      writer.token,
    );

    const [event] = await events.next(1, 10_000);
    expect(event.data?.postCreated).toEqual({
      id: createPost.id,
      title: 'Across',
      author: { name: 'Writer on A' },
    });
  });

  it("should let instance B read what instance A wrote, with A's token", async () => {
    const writer = await a.signUp();
    const { me } = await b.data(`{ me { id } }`, {}, writer.token);
    expect(me).toEqual({ id: writer.user.id });
  });
});

describe('Rate limits shared across instances through Redis (e2e)', () => {
  let a: TestApp;
  let b: TestApp;
  const LOG_IN = `mutation { logIn(input: {email: "nobody@example.com", password: "wrong-password"}) { token } }`;

  beforeAll(async () => {
    const env = {
      REDIS_URL: process.env.TEST_REDIS_URL,
      REDIS_PREFIX: `blog-e2e-${Date.now()}-${process.pid}:`,
      AUTH_RATE_LIMIT: '4',
    };
    a = await TestApp.start({ env });
    b = await TestApp.start({ env, shareDatabaseOf: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('should count attempts on both instances against one limit', async () => {
    const code = async (app: TestApp) => (await app.gql(LOG_IN)).errors?.[0].extensions?.code;
    expect([await code(a), await code(b), await code(a), await code(b)]).toEqual(
      Array(4).fill('UNAUTHENTICATED'),
    );
    expect(await code(a)).toBe('TOO_MANY_REQUESTS');
    expect(await code(b)).toBe('TOO_MANY_REQUESTS');
  });
});
