import { Client } from 'graphql-ws';
import Redis from 'ioredis';

import { Post } from '../src/blog';
import { CREATE_POST } from './helpers/documents';
import { TestApp } from './helpers/test-app';
import { collect, wsClient } from './helpers/ws-client';
import { BlogEvent } from '../src/blog/events/blog-events';

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
    await b.untilSubscribed(BlogEvent.PostPublished, 1);

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

describe('Write limits shared across instances through Redis (e2e)', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const env = {
      REDIS_URL: process.env.TEST_REDIS_URL,
      REDIS_PREFIX: `blog-e2e-writes-${Date.now()}-${process.pid}:`,
      RATE_LIMIT_WRITES_PER_MINUTE: '3',
    };
    a = await TestApp.start({ env });
    b = await TestApp.start({ env, shareDatabaseOf: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("should count a user's writes on both instances against one limit", async () => {
    const writer = await a.signUp();
    const create = (app: TestApp, title: string) =>
      app.gql(CREATE_POST, { input: { title, content: 'x' } }, writer.token);
    const twoPosts = `mutation {
      one: createPost(input: {title: "On A 1", content: "x"}) { id }
      two: createPost(input: {title: "On A 2", content: "x"}) { id }
    }`;
    const code = (response: Awaited<ReturnType<TestApp['gql']>>) =>
      response.errors?.[0]?.extensions?.code;

    expect(code(await a.gql(twoPosts, {}, writer.token))).toBeUndefined();
    expect(code(await b.gql(twoPosts, {}, writer.token))).toBe('TOO_MANY_REQUESTS');
    expect(code(await create(b, 'On B'))).toBeUndefined();
    expect(code(await create(a, 'On A 3'))).toBe('TOO_MANY_REQUESTS');
    expect(await a.dataSource.getRepository(Post).countBy({ authorId: writer.user.id })).toBe(3);
  });
});

describe('Two deployments sharing one Redis (e2e)', () => {
  let ours: TestApp;
  let theirs: TestApp;
  let client: Client;
  const stamp = `${Date.now()}-${process.pid}`;

  beforeAll(async () => {
    // Each deployment with its own database, and the same Redis under another prefix.
    ours = await TestApp.start({
      env: { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `ours-${stamp}:` },
    });
    theirs = await TestApp.start({
      env: { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `theirs-${stamp}:` },
    });
  });
  afterAll(async () => {
    await client?.dispose();
    await theirs?.close();
    await ours?.close();
  });

  it("should hear only its own deployment's events, whatever the other publishes", async () => {
    const { ws } = await ours.listen();
    client = wsClient(ws).client;
    const events = collect(client, `subscription { postCreated { id title } }`);
    await ours.untilSubscribed(BlogEvent.PostPublished, 1);
    // The channel carries the prefix: Redis separates pub/sub by nothing else.
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    try {
      expect(await redis.pubsub('CHANNELS', `ours-${stamp}:*`)).toEqual([
        `ours-${stamp}:${BlogEvent.PostPublished}`,
      ]);
    } finally {
      redis.disconnect();
    }

    const stranger = await theirs.signUp();
    await theirs.data(CREATE_POST, { input: { title: 'Not yours', content: 'x' } }, stranger.token);
    const writer = await ours.signUp();
    const { createPost } = await ours.data(
      CREATE_POST,
      { input: { title: 'Yours', content: 'x' } },
      writer.token,
    );

    // Events of one channel arrive in order: had the other's come through, it would be first.
    const [event] = await events.next(1, 10_000);
    expect(event.data?.postCreated).toEqual({ id: createPost.id, title: 'Yours' });
  });
});
