import { extendSchema, parse } from 'graphql';
import { Client } from 'graphql-ws';
import WebSocket from 'ws';

import {
  BlogWebSocketServer,
  OperationRules,
  SocketConnectionInfo,
  WS_UNAUTHORIZED,
} from '../src/blog';
import { CREATE_POST, fragmentBomb } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';
import { forgeToken, nowInSeconds } from './helpers/tokens';
import { Closed, collect, settle, upgradeStatus, wsClient } from './helpers/ws-client';
import { TrustedDocuments } from '../src/blog/documents/trusted-documents';
import { BlogEvent } from '../src/blog/events/blog-events';
import {
  SubscriptionAdmission,
  SubscriptionCaps,
} from '../src/blog/subscriptions/subscription-admission';

const SECRET = 'e2e-secret-that-is-long-enough-for-hs256-keys';
const POST_CREATED = `subscription { postCreated { id title author { email } } }`;

/** Opens a raw socket that speaks graphql-ws, for what the client library will not send. */
function rawSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, 'graphql-transport-ws');
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

const closedWith = (socket: WebSocket) =>
  new Promise<Closed>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );

/** Resolves with the upgrade's HTTP status, or 101 once the socket opens. */
describe('WebSocket: the same rules as HTTP (e2e)', () => {
  let t: TestApp;
  let url: string;
  let author: TestUser;
  const clients: Client[] = [];
  const sockets: WebSocket[] = [];

  const connect = (authorization?: string) => {
    const connection = wsClient(url, authorization);
    clients.push(connection.client);
    return connection;
  };

  beforeAll(async () => {
    t = await TestApp.start({
      env: {
        GRAPHQL_MAX_COMPLEXITY: '5000',
        WS_MAX_SUBSCRIPTIONS: '3',
        WS_MAX_CONNECTIONS_PER_CLIENT: '4',
        WS_MAX_PAYLOAD_BYTES: '65536',
      },
    });
    url = (await t.listen()).ws;
    author = await t.signUp({ name: 'Author' });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
    sockets.splice(0).forEach((socket) => socket.terminate());
    await settle(100);
  });
  afterAll(() => t.close());

  it('should refuse queries and mutations on the socket, so that only HTTP runs them', async () => {
    const { client } = connect(author.token);
    const query = collect(client, `{ me { email } }`);
    const mutation = collect(client, CREATE_POST, {
      input: { title: 'Over the socket', content: 'No' },
    });
    const [queried] = await query.next(1);
    const [mutated] = await mutation.next(1);
    expect(queried.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(mutated.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(await t.dataSource.query('SELECT id FROM posts')).toEqual([]);
  });

  it('should refuse a subscription over the cost limit, as HTTP does', async () => {
    const { client } = connect();
    const costly = collect(
      client,
      `subscription { postCreated { comments(first: 100) { post { comments(first: 100) { id } } } } }`,
    );
    const [result] = await costly.next(1);
    expect(result.errors?.[0]).toMatchObject({
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', maxComplexity: 5000 },
    });
    expect(result.errors?.[0].extensions).not.toHaveProperty('http');
  });

  it('should count the fan-out of fragments, and refuse a fragment bomb', async () => {
    const { client } = connect();
    const [result] = await collect(client, fragmentBomb('subscription { postCreated', 16)).next(1);
    expect(result.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('should refuse NUL characters in variables, as HTTP does', async () => {
    const { client } = connect();
    const sub = collect(
      client,
      `subscription ($postId: ID!) { commentAdded(postId: $postId) { id } }`,
      { postId: 'a\u0000b' },
    );
    const [result] = await sub.next(1);
    expect(result.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'postId',
    });
  });

  it('should cap the subscriptions of one connection at WS_MAX_SUBSCRIPTIONS', async () => {
    const { client } = connect();
    const open = [1, 2, 3].map(() => collect(client, POST_CREATED));
    await t.untilSubscribed(BlogEvent.PostPublished, 3);
    const fourth = collect(client, POST_CREATED);
    const [refused] = await fourth.next(1);
    expect(refused.errors?.[0].extensions?.code).toBe('TOO_MANY_REQUESTS');
    expect(open.every((subscription) => subscription.results.length === 0)).toBe(true);
    open[0].dispose();
    await t.untilSubscribed(BlogEvent.PostPublished, 2);
    const again = collect(client, POST_CREATED);
    await t.untilSubscribed(BlogEvent.PostPublished, 3);
    await t.data(CREATE_POST, { input: { title: 'Counted', content: 'x' } }, author.token);
    const [event] = await again.next(1);
    expect(event.data?.postCreated.title).toBe('Counted');
  });

  it('should cap the connections of one client address at WS_MAX_CONNECTIONS_PER_CLIENT', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push(await upgradeStatus(url, sockets));
    expect(statuses).toEqual([101, 101, 101, 101, 429]);
    const open = sockets.filter((socket) => socket.readyState === WebSocket.OPEN);
    const gone = closedWith(open[0]);
    open[0].close();
    await gone;
    await settle(100);
    expect(await upgradeStatus(url, sockets)).toBe(101);
  });

  it('should close a socket whose message is larger than WS_MAX_PAYLOAD_BYTES', async () => {
    const socket = await rawSocket(url);
    sockets.push(socket);
    const closed = closedWith(socket);
    socket.send(
      JSON.stringify({ type: 'connection_init', payload: { junk: 'x'.repeat(100_000) } }),
    );
    expect((await closed).code).toBe(1009);
  });

  it('should mask unexpected errors and give every error a code', async () => {
    const broken = await TestApp.start();
    try {
      const brokenUrl = (await broken.listen()).ws;
      // PostgreSQL refuses to drop a table that others (tags, bookmarks…) still reference.
      const cascade = broken.dataSource.options.type === 'postgres' ? ' CASCADE' : '';
      await broken.dataSource.query('DROP TABLE likes');
      // Notifications name comments: on SQLite they would stop the posts' drop below.
      await broken.dataSource.query('DROP TABLE notifications');
      await broken.dataSource.query(`DROP TABLE comments${cascade}`);
      await broken.dataSource.query(`DROP TABLE posts${cascade}`);
      const { client } = wsClient(brokenUrl);
      clients.push(client);
      const sub = collect(
        client,
        `subscription ($postId: ID!) { commentAdded(postId: $postId) { id } }`,
        { postId: '00000000-0000-4000-8000-000000000000' },
      );
      const [result] = await sub.next(1);
      expect(result.errors).toHaveLength(1);
      expect(result.errors?.[0]).toMatchObject({
        message: 'Internal server error.',
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      });
      expect(JSON.stringify(result)).not.toMatch(/posts|Sqlite|relation|QueryFailed/i);
    } finally {
      await Promise.all(clients.splice(0).map((client) => client.dispose()));
      await broken.close();
    }
  });

  it('should report a database failure at connection_init as a server error, not a bad token', async () => {
    const broken = await TestApp.start();
    try {
      const user = await broken.signUp();
      const brokenUrl = (await broken.listen()).ws;
      await broken.dataSource.query('ALTER TABLE users RENAME TO users_gone');
      const { client, closed } = wsClient(brokenUrl, user.token);
      clients.push(client);
      const { code, reason } = await closed;
      expect(code).toBe(4500);
      expect(reason).toBe('Internal server error');
    } finally {
      await Promise.all(clients.splice(0).map((client) => client.dispose()));
      await broken.close();
    }
  });
});

describe('WebSocket: suggestions in production (e2e)', () => {
  it.each([
    ['development', true],
    ['production', false],
  ])('in %s, should suggest field names: %s', async (nodeEnv, suggests) => {
    const t = await TestApp.start({ env: { NODE_ENV: nodeEnv } });
    const { client } = wsClient((await t.listen()).ws);
    try {
      const [result] = await collect(client, `subscription { postCreatd { id } }`).next(1);
      expect(result.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(result.errors?.[0].message).toContain('postCreatd');
      expect(/Did you mean/.test(result.errors?.[0].message ?? '')).toBe(suggests);
      const http = await t.gql(`{ postz { id } }`);
      expect(http.errors?.[0].message).toContain('postz');
      expect(/Did you mean/.test(http.errors?.[0].message ?? '')).toBe(suggests);
    } finally {
      await client.dispose();
      await t.close();
    }
  });
});

describe('WebSocket: a socket does not outlive its token or its user (e2e)', () => {
  let t: TestApp;
  let url: string;
  let author: TestUser;
  const clients: Client[] = [];

  const connect = (authorization?: string) => {
    const connection = wsClient(url, authorization);
    clients.push(connection.client);
    return connection;
  };
  const publish = async (title: string) =>
    t.data(CREATE_POST, { input: { title, content: 'Live' } }, author.token);

  beforeAll(async () => {
    t = await TestApp.start();
    url = (await t.listen()).ws;
    author = await t.signUp({ name: 'Author' });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });
  afterAll(() => t.close());

  it('should close the socket with 4401 when its token expires', async () => {
    const reader = await t.signUp();
    const token = forgeToken({ sub: reader.user.id, exp: nowInSeconds() + 5 }, { secret: SECRET });
    const { client, closed } = connect(`Bearer ${token}`);
    const events = collect(client, POST_CREATED);
    await t.untilSubscribed(BlogEvent.PostPublished, 1);
    await publish('Before expiry');
    expect((await events.next(1))[0].data?.postCreated.title).toBe('Before expiry');
    const { code, reason } = await closed;
    expect(code).toBe(WS_UNAUTHORIZED);
    expect(reason).toMatch(/expired/);
  });

  it('should close the socket of a deleted user at the next event, and send them nothing', async () => {
    const reader = await t.signUp();
    const { client, closed } = connect(reader.token);
    const events = collect(client, POST_CREATED);
    await t.untilSubscribed(BlogEvent.PostPublished, 1);
    await publish('Seen');
    expect(await events.next(1)).toHaveLength(1);
    await t.dataSource.query(`DELETE FROM users WHERE id = '${reader.user.id}'`);
    await publish('Not seen');
    expect((await closed).code).toBe(WS_UNAUTHORIZED);
    expect(events.results).toHaveLength(1);
  });

  it('should stop showing private fields to an admin as soon as their role is revoked', async () => {
    const admin = await t.signUp({ name: 'Admin' });
    await t.makeAdmin(admin.user.id);
    const { client } = connect(admin.token);
    const events = collect(client, POST_CREATED);
    await t.untilSubscribed(BlogEvent.PostPublished, 1);
    await publish('While admin');
    const [first] = await events.next(1);
    expect(first.data?.postCreated.author.email).toBe(author.user.email);
    await t.dataSource.query(`UPDATE users SET role = 'user' WHERE id = '${admin.user.id}'`);
    await publish('After revocation');
    const [, second] = await events.next(2);
    expect(second.data?.postCreated.title).toBe('After revocation');
    expect(second.data?.postCreated.author.email).toBe('');
  });
});

describe('WebSocket: connections as operators see them (e2e)', () => {
  it('should count open subscriptions, report connections, and close them with 1001 on shutdown', async () => {
    const t = await TestApp.start();
    const server = t.app.get(BlogWebSocketServer);
    const opened: SocketConnectionInfo[] = [];
    const closedInfo: SocketConnectionInfo[] = [];
    server.events.on('connectionOpened', (info) => opened.push(info));
    server.events.on('connectionClosed', (info) => closedInfo.push(info));
    const reader = await t.signUp();
    const { client, closed } = wsClient((await t.listen()).ws, reader.token);
    collect(client, POST_CREATED);
    await t.untilSubscribed(BlogEvent.PostPublished, 1);
    expect(server.openConnections).toBe(1);
    expect(server.openSubscriptions).toBe(1);
    expect(opened).toEqual([{ clientAddress: '127.0.0.1', userId: reader.user.id }]);
    await t.close();
    expect((await closed).code).toBe(1001);
    expect(closedInfo[0]).toMatchObject({ userId: reader.user.id, code: 1001 });
    expect(server.openSubscriptions).toBe(0);
  });
});

describe('WebSocket: expensive fields, counted as on HTTP (e2e)', () => {
  let t: TestApp;
  let url: string;
  const clients: Client[] = [];
  const SEARCH = 'searchPosts(query: "graphql", first: 1) { edges { cursor } }';
  const aliases = (count: number, selection: string) =>
    Array.from({ length: count }, (_, i) => `a${i}: ${selection}`).join(' ');

  /**
   * No subscription of the blog reaches an expensive field: they are fields of Query, Tag and
   * PostConnection. So the socket's admission is given the blog's schema with one more
   * subscription, `everything: Query!`, and the socket's own rules; what it refuses, it refuses
   * as it would a subscription of the blog's.
   */
  beforeAll(async () => {
    t = await TestApp.start();
    url = (await t.listen()).ws;
    const server = t.app.get(BlogWebSocketServer) as unknown as {
      admission: SubscriptionAdmission;
    };
    const served = server.admission as unknown as {
      caps: SubscriptionCaps;
      rules: OperationRules;
      trustedDocuments: TrustedDocuments;
    };
    const schema = extendSchema(
      server.admission.schema,
      parse('extend type Subscription { everything: Query! }'),
    );
    // One event, at once: the root value of the queries it selects.
    const everything = schema.getSubscriptionType()!.getFields().everything;
    everything.subscribe = async function* () {
      yield {};
    };
    everything.resolve = () => ({});
    server.admission = new SubscriptionAdmission(
      served.caps,
      schema,
      served.rules,
      served.trustedDocuments,
    );
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
    await settle(100);
  });
  afterAll(() => t.close());

  const firstResult = async (query: string) => {
    const { client } = wsClient(url);
    clients.push(client);
    const [result] = await collect(client, query).next(1);
    return result;
  };
  const expectRefused = (
    result: Awaited<ReturnType<typeof firstResult>>,
    expensiveFields: number,
  ) => {
    expect(result.data ?? null).toBeNull();
    expect(result.errors?.[0].extensions).toEqual({
      code: 'GRAPHQL_VALIDATION_FAILED',
      limit: 'expensiveFields',
      expensiveFields,
      maxExpensiveFields: 3,
    });
  };

  it('should refuse four aliased expensive fields before anything runs, and run three', async () => {
    expectRefused(await firstResult(`subscription { everything { ${aliases(4, SEARCH)} } }`), 4);
    const three = await firstResult(`subscription { everything { ${aliases(3, SEARCH)} } }`);
    expect(three).toEqual({
      data: { everything: { a0: { edges: [] }, a1: { edges: [] }, a2: { edges: [] } } },
    });
  });

  it('should count aliases and fragments as HTTP does', async () => {
    const fragments =
      `fragment Lists on Query { found: ${SEARCH} tagged: posts(tags: ["graphql"]) { id } } ` +
      'fragment Page on PostConnection { totalCount }';
    expectRefused(
      await firstResult(
        `subscription { everything { ...Lists all: postsConnection { ...Page } tag(slug: "x") { posts { ...Page } } } } ${fragments}`,
      ),
      4,
    );
  });

  it('should refuse the same fields sent as a query, as it refuses every query', async () => {
    const result = await firstResult(`{ ${aliases(4, SEARCH)} }`);
    expect(result.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
  });
});
