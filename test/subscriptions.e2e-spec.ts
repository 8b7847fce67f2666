import { PubSubEngine } from 'graphql-subscriptions';
import { Client } from 'graphql-ws';

import { BLOG_PUB_SUB, WS_UNAUTHORIZED } from '../src/blog';
import { CREATE_POST, LIKE_POST, PUBLISH_POST, UNLIKE_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';
import { forgeToken, nowInSeconds } from './helpers/tokens';
import { collect, settle, wsClient } from './helpers/ws-client';
import { BlogEvent } from '../src/blog/events/blog-events';
import { SubscriptionFanOut } from '../src/blog/subscriptions/event-fan-out';

const POST_CREATED = `subscription { postCreated { id title author { name } isLikedByMe } }`;
const LIKES_CHANGED = `subscription ($postId: ID!) { postLikesChanged(postId: $postId) { id likesCount isLikedByMe } }`;
const COMMENT_ADDED = `subscription ($postId: ID!) { commentAdded(postId: $postId) { text author { name } post { id } } }`;

describe('Subscriptions over graphql-ws (e2e)', () => {
  let t: TestApp;
  let url: string;
  let author: TestUser;
  let fan: TestUser;
  const clients: Client[] = [];

  const connect = (authorization?: string) => {
    const connection = wsClient(url, authorization);
    clients.push(connection.client);
    return connection;
  };
  const publish = async (title: string, publishNow = true) =>
    (
      await t.data(
        CREATE_POST,
        { input: { title, content: 'Live', publish: publishNow } },
        author.token,
      )
    ).createPost.id as string;

  beforeAll(async () => {
    t = await TestApp.start();
    url = (await t.listen()).ws;
    author = await t.signUp({ name: 'Author' });
    fan = await t.signUp({ name: 'Fan' });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });
  afterAll(() => t.close());

  it('should push each published post to an anonymous subscriber on /graphql, and never a draft', async () => {
    const { client } = connect();
    const events = collect(client, POST_CREATED);
    await t.untilSubscribed(BlogEvent.PostPublished, 1);
    const draftId = await publish('Secret draft', false);
    const postId = await publish('Hello live');
    const [first] = await events.next(1);
    expect(first.data?.postCreated).toEqual({
      id: postId,
      title: 'Hello live',
      author: { name: 'Author' },
      isLikedByMe: false,
    });
    await t.data(PUBLISH_POST, { id: draftId }, author.token);
    const [, second] = await events.next(2);
    expect(second.data?.postCreated.id).toBe(draftId);
    expect(events.results).toHaveLength(2);
  });

  it("should give each subscriber their own isLikedByMe when a post's likes change", async () => {
    const postId = await publish('Like me');
    const asFan = collect(connect(fan.token).client, LIKES_CHANGED, { postId });
    const asAnonymous = collect(connect().client, LIKES_CHANGED, { postId });
    await t.untilSubscribed(BlogEvent.PostLikesChanged, 2);
    await t.data(LIKE_POST, { postId }, fan.token);
    const [fanSees] = await asFan.next(1);
    const [anonymousSees] = await asAnonymous.next(1);
    expect(fanSees.data?.postLikesChanged).toEqual({
      id: postId,
      likesCount: 1,
      isLikedByMe: true,
    });
    expect(anonymousSees.data?.postLikesChanged).toEqual({
      id: postId,
      likesCount: 1,
      isLikedByMe: false,
    });

    await t.data(LIKE_POST, { postId }, fan.token);
    await t.data(UNLIKE_POST, { postId }, fan.token);
    const [, afterUnlike] = await asFan.next(2);
    expect(afterUnlike.data?.postLikesChanged).toEqual({
      id: postId,
      likesCount: 0,
      isLikedByMe: false,
    });
    await settle();
    expect(asFan.results).toHaveLength(2);
  });

  it('should push comments on the subscribed post only', async () => {
    const postId = await publish('Discuss');
    const otherId = await publish('Elsewhere');
    const events = collect(connect().client, COMMENT_ADDED, { postId });
    await t.untilSubscribed(BlogEvent.CommentAdded, 1);
    const add = `mutation ($p: ID!, $t: String!) { addComment(postId: $p, text: $t) { id } }`;
    await t.data(add, { p: otherId, t: 'Not this one' }, fan.token);
    await t.data(add, { p: postId, t: 'This one' }, fan.token);
    const [event] = await events.next(1);
    expect(event.data?.commentAdded).toEqual({
      text: 'This one',
      author: { name: 'Fan' },
      post: { id: postId },
    });
    await settle();
    expect(events.results).toHaveLength(1);
  });

  it("should refuse a subscription to someone else's draft with NOT_FOUND", async () => {
    const draftId = await publish('Hidden', false);
    const events = collect(connect(fan.token).client, COMMENT_ADDED, { postId: draftId });
    const [result] = await events.next(1);
    expect(result.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it.each([
    [
      'a forged token',
      () =>
        `Bearer ${forgeToken({ sub: author.user.id, exp: nowInSeconds() + 60 }, { secret: 'x'.repeat(40) })}`,
    ],
    [
      'an expired token',
      () =>
        `Bearer ${forgeToken({ sub: author.user.id, exp: nowInSeconds() - 60 }, { secret: process.env.JWT_SECRET })}`,
    ],
    ['garbage', () => 'Bearer nonsense'],
  ])('should close the connection with 4401 and a reason for %s', async (_, token) => {
    const { client, closed } = connect(token());
    collect(client, POST_CREATED);
    const { code, reason } = await closed;
    expect(code).toBe(WS_UNAUTHORIZED);
    expect(reason).toMatch(/^Unauthorized: /);
  });

  it('should accept a valid token as Bearer or bare', async () => {
    const bare = author.token.replace(/^Bearer /, '');
    const events = collect(connect(bare).client, `subscription { postCreated { id } }`);
    await t.untilSubscribed(BlogEvent.PostPublished, 1);
    const postId = await publish('For a bare token');
    expect((await events.next(1))[0].data?.postCreated.id).toBe(postId);
  });

  it('should release the event listeners of clients that disconnect', async () => {
    const pubSub = t.app.get<PubSubEngine>(BLOG_PUB_SUB, { strict: false }) as unknown as {
      ee: { listenerCount(event: string): number };
    };
    const fanOut = t.app.get(SubscriptionFanOut);
    const listeners = () => pubSub.ee.listenerCount('blog.postPublished');
    const subscribers = () => fanOut.subscribers('blog.postPublished');
    await t.untilSubscribed(BlogEvent.PostPublished, 0);
    expect([listeners(), subscribers()]).toEqual([0, 0]);
    const connections = Array.from({ length: 5 }, () => connect());
    connections.forEach(({ client }) => collect(client, POST_CREATED));
    await t.untilSubscribed(BlogEvent.PostPublished, 5);
    // One PubSub listener serves every subscription of the instance.
    expect([listeners(), subscribers()]).toEqual([1, 5]);
    await Promise.all(connections.map(({ client }) => client.dispose()));
    await t.untilSubscribed(BlogEvent.PostPublished, 0);
    expect([listeners(), subscribers()]).toEqual([0, 0]);
  });
});
