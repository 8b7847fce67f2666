import { Client } from 'graphql-ws';

import { CREATE_POST, FOLLOW_USER, LIKE_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';
import { collect, settle, wsClient } from './helpers/ws-client';
import { BlogEvent } from '../src/blog/events/blog-events';

const NOTIFICATION_ADDED = `subscription { notificationAdded { id kind actor { id } post { id } } }`;
const LATEST = `{ notifications(first: 1) { edges { node { id } } } }`;

/**
 * Two instances of the service on one database and one Redis: a notification raised on one
 * reaches its recipient's subscription on the other, and no one else's. Runs in the
 * e2e-postgres project when TEST_REDIS_URL is set.
 */
describe('Notifications across instances through Redis (e2e)', () => {
  let a: TestApp;
  let b: TestApp;
  let clients: Client[] = [];
  let wsOfA: string;

  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL };
    a = await TestApp.start({ env });
    b = await TestApp.start({ env, shareDatabaseOf: a });
    wsOfA = (await a.listen()).ws;
  });
  afterEach(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    clients = [];
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** Subscriptions to notificationAdded on instance A, one per user. */
  const subscribeOnA = async (...users: TestUser[]) => {
    const streams = users.map((user) => {
      const { client } = wsClient(wsOfA, user.token);
      clients.push(client);
      return collect(client, NOTIFICATION_ADDED);
    });
    await a.untilSubscribed(BlogEvent.NotificationAdded, clients.length);
    return streams;
  };
  const latestId = async (user: TestUser): Promise<string> =>
    (await a.data(LATEST, {}, user.token)).notifications.edges[0].node.id;

  it('should deliver a like raised on instance B to its recipient subscribed on A, only', async () => {
    const [author, fan, other] = [await b.signUp(), await b.signUp(), await b.signUp()];
    const [asAuthor, asFan, asOther] = await subscribeOnA(author, fan, other);
    const { createPost } = await b.data(
      CREATE_POST,
      { input: { title: 'Across', content: 'Redis' } },
      author.token,
    );
    await b.data(LIKE_POST, { postId: createPost.id }, fan.token);

    const [event] = await asAuthor.next(1, 10_000);
    expect(event.data?.notificationAdded).toEqual({
      id: await latestId(author),
      kind: 'POST_LIKED',
      actor: { id: fan.user.id },
      post: { id: createPost.id },
    });
    await settle(500);
    expect(asFan.results).toEqual([]);
    expect(asOther.results).toEqual([]);
  });

  it('should deliver a publication raised on instance B to the followers subscribed on A, only', async () => {
    const [author, follower, stranger] = [await b.signUp(), await b.signUp(), await b.signUp()];
    await b.data(FOLLOW_USER, { userId: author.user.id }, follower.token);
    const [asFollower, asStranger, asAuthor] = await subscribeOnA(follower, stranger, author);
    const { createPost } = await b.data(
      CREATE_POST,
      { input: { title: 'Broadcast', content: 'To followers' } },
      author.token,
    );

    const [event] = await asFollower.next(1, 10_000);
    expect(event.data?.notificationAdded).toEqual({
      id: await latestId(follower),
      kind: 'FOLLOWEE_PUBLISHED',
      actor: { id: author.user.id },
      post: { id: createPost.id },
    });
    await settle(500);
    expect(asStranger.results).toEqual([]);
    expect(asAuthor.results).toEqual([]);
  });
});
