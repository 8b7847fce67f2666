import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

import { CREATE_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';
import { collect, settle, wsClient } from './helpers/ws-client';
import { BlogEvent, BlogEvents } from '../src/blog/events/blog-events';
import { SUBSCRIBERS_PER_TURN, SubscriptionFanOut } from '../src/blog/subscriptions/event-fan-out';

const POST_CREATED = `subscription { postCreated { id title author { name } } }`;

/** A graphql-ws client whose socket comes from `localAddress`: another client on loopback. */
function clientFrom(url: string, localAddress: string): Client {
  class FromAddress extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { localAddress });
    }
  }
  return createClient({
    url,
    webSocketImpl: FromAddress,
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: () => undefined,
  });
}

describe('Subscription fan-out: shared reads (e2e)', () => {
  let t: TestApp;
  let url: string;
  let author: TestUser;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await TestApp.start();
    url = (await t.listen()).ws;
    author = await t.signUp({ name: 'Author' });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });
  afterAll(() => t.close());

  /** The statements one event costs with `anonymous` and `signedIn` subscribers. */
  async function statementsOfOneEvent(anonymous: number, signedIn: TestUser[]): Promise<number> {
    const { post } = await t
      .data<{ createPost: { id: string } }>(
        CREATE_POST,
        { input: { title: `Fan-out ${anonymous}`, content: 'x', publish: false } },
        author.token,
      )
      .then((data) => ({ post: data.createPost }));
    // The draft's own after-work (SQLite's search index batch) is not the event's.
    await t.fannedOut();
    const subscriptions = [
      ...Array.from({ length: anonymous }, () => undefined),
      ...signedIn.map((user) => user.token),
    ].map((token) => {
      const { client } = wsClient(url, token);
      clients.push(client);
      return collect(client, POST_CREATED);
    });
    await t.untilSubscribed(BlogEvent.PostPublished, subscriptions.length);
    await t.fannedOut();
    const before = t.statements.statements.length;
    // Straight to the PubSub: no mutation's statements in the count.
    t.app.get(BlogEvents).postPublished(post.id);
    // The draft reaches its author alone (subscribed last); the others are given time to (not)
    // receive it.
    await subscriptions[subscriptions.length - 1].next(1);
    await settle();
    const sent = t.statements.statements.slice(before);
    // Drafts stay hidden from everyone but their author, as before.
    const seen = subscriptions.map((subscription) => subscription.results.length);
    expect(seen).toEqual(subscriptions.map((_, i) => (i === subscriptions.length - 1 ? 1 : 0)));
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
    await t.untilSubscribed(BlogEvent.PostPublished, 0);
    return sent.length;
  }

  it('should read the post once per event and the viewers in one batch, however many subscribe', async () => {
    const readers = await Promise.all([1, 2, 3].map(() => t.signUp()));
    const few = await statementsOfOneEvent(2, [...readers.slice(0, 1), author]);
    const many = await statementsOfOneEvent(40, [...readers, ...readers, author]);
    // The viewers' rows (one statement), the post (one); the draft reaches its author only.
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(4);
  });

  it('should show each subscriber what a query would show them, from the shared reads', async () => {
    const reader = await t.signUp({ name: 'Reader' });
    const query = `subscription { postCreated { id author { name email } isLikedByMe } }`;
    const asAuthor = collect(connect(author.token), query);
    const asReader = collect(connect(reader.token), query);
    const asAnonymous = collect(connect(), query);
    await t.untilSubscribed(BlogEvent.PostPublished, 3);
    const { createPost } = await t.data(
      CREATE_POST,
      { input: { title: 'Seen by three', content: 'x' } },
      author.token,
    );
    const [[own], [others], [anonymous]] = await Promise.all(
      [asAuthor, asReader, asAnonymous].map((subscription) => subscription.next(1)),
    );
    expect(own.data?.postCreated).toEqual({
      id: createPost.id,
      author: { name: 'Author', email: author.user.email },
      isLikedByMe: false,
    });
    expect(others.data?.postCreated.author).toEqual({ name: 'Author', email: '' });
    expect(anonymous.data?.postCreated.author).toEqual({ name: 'Author', email: '' });
  });

  function connect(token?: string): Client {
    const { client } = wsClient(url, token);
    clients.push(client);
    return client;
  }
});

describe('Subscription fan-out: caps per client address and in all (e2e)', () => {
  let t: TestApp;
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await TestApp.start({
      env: {
        WS_MAX_SUBSCRIPTIONS: '4',
        WS_MAX_SUBSCRIPTIONS_PER_CLIENT: '6',
        WS_MAX_SUBSCRIPTIONS_TOTAL: '8',
      },
    });
    url = (await t.listen()).ws;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
    await t.untilSubscribed(BlogEvent.PostPublished, 0);
  });
  afterAll(() => t.close());

  const from = (address: string) => {
    const client = clientFrom(url, address);
    clients.push(client);
    return client;
  };

  it('should count the subscriptions of one address across its sockets, and not those of others', async () => {
    const [first, second] = [from('127.0.0.1'), from('127.0.0.1')];
    const open = [
      ...[1, 2, 3, 4].map(() => collect(first, POST_CREATED)),
      ...[1, 2].map(() => collect(second, POST_CREATED)),
    ];
    await t.untilSubscribed(BlogEvent.PostPublished, 6);
    const [refused] = await collect(second, POST_CREATED).next(1);
    expect(refused.errors?.[0]).toMatchObject({
      message: 'At most 6 subscriptions may be open from one client address.',
      extensions: { code: 'TOO_MANY_REQUESTS' },
    });
    const other = collect(from('127.0.0.2'), POST_CREATED);
    await t.untilSubscribed(BlogEvent.PostPublished, 7);
    expect(other.results).toEqual([]);

    open[0].dispose();
    await t.untilSubscribed(BlogEvent.PostPublished, 6);
    const again = collect(second, POST_CREATED);
    await t.untilSubscribed(BlogEvent.PostPublished, 7);
    expect(again.results).toEqual([]);
  });

  it('should cap the subscriptions of the instance, from every address', async () => {
    [1, 2, 3, 4].forEach(() => collect(from('127.0.0.3'), POST_CREATED));
    [1, 2, 3, 4].forEach(() => collect(from('127.0.0.4'), POST_CREATED));
    await t.untilSubscribed(BlogEvent.PostPublished, 8);
    const [refused] = await collect(from('127.0.0.5'), POST_CREATED).next(1);
    expect(refused.errors?.[0].extensions?.code).toBe('TOO_MANY_REQUESTS');
    expect(refused.errors?.[0].message).toMatch(/as many subscriptions open as it serves/);
  });

  it('should give back the slots of a socket that closes', async () => {
    const socket = from('127.0.0.6');
    [1, 2, 3, 4].forEach(() => collect(socket, POST_CREATED));
    await t.untilSubscribed(BlogEvent.PostPublished, 4);
    await socket.dispose();
    await t.untilSubscribed(BlogEvent.PostPublished, 0);
    const after = from('127.0.0.6');
    [1, 2, 3, 4].forEach(() => collect(after, POST_CREATED));
    await t.untilSubscribed(BlogEvent.PostPublished, 4);
  });
});

/** A child process of the suite's, and the messages it sends, awaited by key. */
class Child {
  readonly process: ChildProcess;

  constructor(script: string, args: string[]) {
    this.process = fork(join(__dirname, 'helpers', script), args, { execArgv: [] });
  }

  next(key: string): Promise<Record<string, any>> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: Record<string, any>) => {
        if (message.error) reject(new Error(JSON.stringify(message.error)));
        if (!(key in message)) return;
        this.process.off('message', onMessage);
        resolve(message);
      };
      this.process.on('message', onMessage);
    });
  }

  send(message: Record<string, unknown>): void {
    this.process.send(message);
  }
}

/** What the fan-out's paced deliveries hold: each event's subscribers and the next one's index. */
interface Deliveries {
  jobs: { streams: unknown[]; next: number }[];
  pump(): void;
}

/**
 * The measure: 5,000 anonymous subscribers of one address, and a post created. The
 * subscribers, and a client that sends `{ __typename }` meanwhile, run in processes of their
 * own. How long the event loop is held depends on the machine, so the test does not time it: it
 * counts the subscribers handed their event in each turn of the event loop, which bounds it.
 */
describe('Subscription fan-out: 5,000 subscribers on one event (e2e)', () => {
  const SOCKETS = 10;
  const PER_SOCKET = 500;
  const SUBSCRIBERS = SOCKETS * PER_SOCKET;
  let t: TestApp;
  let author: TestUser;
  let swarm: Child;
  let prober: Child;
  /** Subscribers handed an event, per turn of the event loop. */
  const turns: number[] = [];

  beforeAll(async () => {
    t = await TestApp.start({
      env: {
        WS_MAX_SUBSCRIPTIONS: String(PER_SOCKET),
        WS_MAX_SUBSCRIPTIONS_PER_CLIENT: String(SUBSCRIBERS),
        WS_MAX_SUBSCRIPTIONS_TOTAL: String(SUBSCRIBERS),
      },
    });
    const deliveries = (t.app.get(SubscriptionFanOut) as unknown as { deliveries: Deliveries })
      .deliveries;
    const pending = () => deliveries.jobs.reduce((n, job) => n + job.streams.length - job.next, 0);
    const pump = deliveries.pump.bind(deliveries);
    jest.spyOn(deliveries, 'pump').mockImplementation(() => {
      const before = pending();
      pump();
      turns.push(before - pending());
    });
    const urls = await t.listen();
    author = await t.signUp({ name: 'Author' });
    swarm = new Child('subscriber-swarm.js', [
      urls.ws,
      String(SOCKETS),
      String(PER_SOCKET),
      POST_CREATED,
    ]);
    prober = new Child('typename-probe.js', [urls.http]);
    await Promise.all([swarm.next('ready'), prober.next('ready')]);
    await t.untilSubscribed(BlogEvent.PostPublished, SUBSCRIBERS, 60_000);
  }, 90_000);
  afterAll(async () => {
    swarm?.send({ close: true });
    prober?.send({ close: true });
    await t.close();
  });

  /** Creates a post, and follows its fan-out to every subscriber. */
  async function fanOut(round: number) {
    const delivered = swarm.next('received');
    swarm.send({ expect: SUBSCRIBERS * round });
    prober.send({ start: true });
    turns.length = 0;
    const { createPost } = await t.data(
      CREATE_POST,
      { input: { title: `To five thousand, ${round}`, content: 'x' } },
      author.token,
    );
    const { received } = await delivered;
    const answered = prober.next('probes');
    prober.send({ stop: true });
    const { probes } = await answered;
    return {
      postId: createPost.id as string,
      received: received as number,
      turns: [...turns],
      probes: probes as { ok: boolean; ms: number }[],
    };
  }

  it('should deliver each post a slice per turn of the event loop, and answer { __typename } meanwhile', async () => {
    const rounds = [await fanOut(1), await fanOut(2), await fanOut(3)];

    expect(rounds.map(({ received }) => received)).toEqual([1, 2, 3].map((n) => n * SUBSCRIBERS));
    for (const round of rounds) {
      expect(round.turns.reduce((sum, handed) => sum + handed, 0)).toBe(SUBSCRIBERS);
      expect(Math.max(...round.turns)).toBeLessThanOrEqual(SUBSCRIBERS_PER_TURN);
      expect(round.turns.length).toBeGreaterThanOrEqual(SUBSCRIBERS / SUBSCRIBERS_PER_TURN);
    }
    const probes = rounds.flatMap((round) => round.probes);
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.filter(({ ok }) => !ok)).toEqual([]);
  }, 60_000);
});
