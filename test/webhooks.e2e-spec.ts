import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Webhook as StandardWebhook } from 'standardwebhooks';

import { testDatabase } from './helpers/databases';
import { CREATE_POST, DELETE_POST, PUBLISH_POST, UPDATE_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';
import { PostsService } from '../src/blog';
import { Sql } from '../src/blog/common/sql';
import { newId } from '../src/blog/common/uuid';
import { WebhookDispatcher } from '../src/blog/webhooks/webhook-dispatcher';
import { WebhookOutbox } from '../src/blog/webhooks/webhook-outbox';

/** One request a receiver got, its signature checked by the standard's own library. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** `{ type, version, timestamp, data }`, as `Webhook.verify` returned it. */
  payload: { type: string; version: number; timestamp: string; data: Record<string, any> };
}

type Handler = (response: ServerResponse, count: number, headers: IncomingHttpHeaders) => void;

/**
 * A webhook receiver on 127.0.0.1: each path answers as its handler says (200 by default), and
 * every request is kept, verified with the secret registered for its path by `standardwebhooks`.
 */
class Receiver {
  readonly received: Received[] = [];
  readonly unverified: string[] = [];
  /** Connections the server accepted, per path requested or not: proof that none was made. */
  connections = 0;
  private readonly handlers = new Map<string, Handler>();
  private readonly secrets = new Map<string, string[]>();
  private readonly counts = new Map<string, number>();
  private server!: Server;

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        const body = Buffer.concat(chunks).toString('utf8');
        const secrets = this.secrets.get(path) ?? [];
        try {
          if (secrets.length === 0) throw new Error(`no secret for ${path}`);
          for (const secret of secrets) {
            const payload = new StandardWebhook(secret).verify(body, {
              'webhook-id': String(request.headers['webhook-id']),
              'webhook-timestamp': String(request.headers['webhook-timestamp']),
              'webhook-signature': String(request.headers['webhook-signature']),
            }) as Received['payload'];
            if (secret === secrets[0]) {
              this.received.push({ path, headers: request.headers, body, payload });
            }
          }
        } catch (error) {
          this.unverified.push(`${path}: ${(error as Error).message}`);
        }
        const count = (this.counts.get(path) ?? 0) + 1;
        this.counts.set(path, count);
        const handler = this.handlers.get(path);
        if (handler) handler(response, count, request.headers);
        else response.end('ok');
      });
    });
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string, host = '127.0.0.1', scheme = 'http'): string {
    return `${scheme}://${host}:${this.port}${path}`;
  }

  /** Verifies what `path` gets with `secrets` (the first is the current one). */
  expect(path: string, secrets: string[], handler?: Handler): void {
    this.secrets.set(path, secrets);
    if (handler) this.handlers.set(path, handler);
  }

  at(path: string): Received[] {
    return this.received.filter((request) => request.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Polls `check` until it holds (or fails after `timeoutMs`): deliveries arrive in the background. */
async function until<T>(
  what: string,
  check: () => Promise<T | false> | T | false,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const WEBHOOK = 'id url events description enabled consecutiveFailures createdAt';
const DELIVERY =
  'id messageId event attempt status responseCode durationMs responseSnippet error manual createdAt attemptedAt nextAttemptAt';
const CREATE_WEBHOOK = `mutation ($input: CreateWebhookInput!) {
  createWebhook(input: $input) { secret webhook { ${WEBHOOK} } }
}`;
const DELIVERIES = `query ($id: ID!, $first: Int, $after: String) {
  webhook(id: $id) { id enabled consecutiveFailures
    deliveries(first: $first, after: $after) { pageInfo { hasNextPage endCursor } edges { node { ${DELIVERY} } } } }
}`;

/** Fast retries and a short time limit, so that the suite runs in seconds. */
const ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_BASE_MS: '40',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_MAX_ATTEMPTS: '3',
  WEBHOOK_DISABLE_AFTER: '3',
  RATE_LIMIT_WRITES_PER_MINUTE: '0',
  MODERATION_AUTO_HIDE_REPORTS: '2',
};

describe('Webhooks (e2e)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let admin: TestUser;
  let author: TestUser;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    t = await TestApp.start({ env: ENV });
    admin = await t.signUp();
    await t.makeAdmin(admin.user.id);
    author = await t.signUp();
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  afterEach(() => expect(receiver.unverified).toEqual([]));

  /** A webhook on `path` of the receiver, verified with its secret. */
  async function webhook(
    path: string,
    events: string[],
    handler?: Handler,
    app: TestApp = t,
  ): Promise<{ id: string; secret: string }> {
    const { createWebhook } = await app.data(
      CREATE_WEBHOOK,
      { input: { url: receiver.url(path), events, description: `test ${path}` } },
      admin.token,
    );
    receiver.expect(path, [createWebhook.secret], handler);
    return { id: createWebhook.webhook.id, secret: createWebhook.secret };
  }

  async function deliveriesOf(webhookId: string, app: TestApp = t, token = admin.token) {
    const { webhook } = await app.data(DELIVERIES, { id: webhookId, first: 100 }, token);
    return webhook.deliveries.edges.map((edge: any) => edge.node) as any[];
  }

  const deleteWebhook = (id: string, app: TestApp = t) =>
    app.data(`mutation ($id: ID!) { deleteWebhook(id: $id) }`, { id }, admin.token);

  const publish = async (title: string, token = author.token, app: TestApp = t) =>
    (await app.data(CREATE_POST, { input: { title, content: `${title}: content` } }, token))
      .createPost as { id: string };

  it('should create a webhook with a Standard Webhooks secret shown once, and list it', async () => {
    const { data } = await t.gql(
      CREATE_WEBHOOK,
      { input: { url: receiver.url('/list'), events: ['POST_PUBLISHED', 'POST_PUBLISHED'] } },
      admin.token,
    );
    const created = data!.createWebhook;
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    expect(created.webhook).toMatchObject({
      url: receiver.url('/list'),
      events: ['POST_PUBLISHED'],
      description: null,
      enabled: true,
      consecutiveFailures: 0,
    });
    const { webhooks } = await t.data(
      `{ webhooks(first: 100) { totalCount edges { cursor node { id url } } pageInfo { hasNextPage } } }`,
      {},
      admin.token,
    );
    expect(webhooks.edges.map((edge: any) => edge.node.id)).toContain(created.webhook.id);
    expect(JSON.stringify(webhooks)).not.toContain(created.secret);
    const [row] = await t.dataSource.query(
      `SELECT secret FROM webhooks WHERE id = '${created.webhook.id}'`,
    );
    expect(row.secret).not.toContain(created.secret.slice(6, 30));
    await deleteWebhook(created.webhook.id);
  });

  it('should refuse bad targets and inputs with BAD_USER_INPUT', async () => {
    const refused = async (input: Record<string, unknown>) => {
      const { errors } = await t.gql(CREATE_WEBHOOK, { input }, admin.token);
      return errors?.[0]?.extensions;
    };
    const events = ['POST_PUBLISHED'];
    expect(await refused({ url: 'ftp://example.com/x', events })).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.url',
    });
    expect(await refused({ url: 'https://u:p@example.com/x', events })).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    expect(await refused({ url: `https://example.com/${'x'.repeat(2100)}`, events })).toMatchObject(
      {
        code: 'BAD_USER_INPUT',
      },
    );
    expect(await refused({ url: 'https://example.com/x', events: [] })).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.events',
    });
    expect(await refused({ url: 'https://example.com/x', events: ['PING'] })).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
  });

  it('should keep webhooks to admins: FORBIDDEN for others, UNAUTHENTICATED for nobody', async () => {
    const { id } = await webhook('/private', ['POST_PUBLISHED']);
    const documents: [string, Record<string, unknown>][] = [
      ['{ webhooks { edges { node { id } } } }', {}],
      [CREATE_WEBHOOK, { input: { url: 'https://example.com/x', events: ['POST_PUBLISHED'] } }],
      ['mutation ($id: ID!) { updateWebhook(id: $id, input: { enabled: false }) { id } }', { id }],
      ['mutation ($id: ID!) { deleteWebhook(id: $id) }', { id }],
      ['mutation ($id: ID!) { rotateWebhookSecret(id: $id) { secret } }', { id }],
      ['mutation ($id: ID!) { testWebhook(id: $id) { id } }', { id }],
      ['mutation ($id: ID!) { redeliverWebhook(deliveryId: $id) { id } }', { id }],
    ];
    for (const [document, variables] of documents) {
      const asAuthor = await t.gql(document, variables, author.token);
      expect(asAuthor.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const asNobody = await t.gql(document, variables);
      expect(asNobody.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    expect((await deliveriesOf(id)).length).toBe(0);
    await deleteWebhook(id);
  });

  it('should deliver every event type, signed, with stable payloads and nothing private', async () => {
    const events = [
      'POST_PUBLISHED',
      'POST_UPDATED',
      'POST_UNPUBLISHED',
      'POST_DELETED',
      'POST_SCHEDULED',
      'COMMENT_CREATED',
      'USER_CREATED',
    ];
    const { id } = await webhook('/all', events);
    const reader = await t.signUp();
    const published = await publish('Webhook news');
    await t.data(
      UPDATE_POST,
      { id: published.id, input: { title: 'Webhook news, edited' } },
      author.token,
    );
    await t.data(
      `mutation ($postId: ID!) { addComment(postId: $postId, text: "Nice") { id } }`,
      { postId: published.id },
      reader.token,
    );
    const draft = (
      await t.data(
        CREATE_POST,
        { input: { title: 'Secret draft', content: 'Hidden words', publish: false } },
        author.token,
      )
    ).createPost;
    await t.data(UPDATE_POST, { id: draft.id, input: { content: 'Still hidden' } }, author.token);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    await t.data(
      `mutation ($id: ID!, $at: DateTime!) { schedulePost(id: $id, at: $at) { id } }`,
      { id: draft.id, at },
      author.token,
    );
    await t.app.get(PostsService).publishDue(new Date(Date.now() + 7_200_000), 10);
    await t.data(
      `mutation ($id: ID!) { unpublishPost(id: $id) { id } }`,
      { id: published.id },
      author.token,
    );
    await t.data(DELETE_POST, { id: draft.id }, author.token);

    const types = [
      'user.created',
      'post.published',
      'post.updated',
      'comment.created',
      'post.scheduled',
      'post.published',
      'post.unpublished',
      'post.deleted',
    ];
    const got = await until(
      'every event',
      () => receiver.at('/all').length >= types.length && receiver.at('/all'),
    );
    expect(got.map((request) => request.payload.type).sort()).toEqual([...types].sort());
    for (const request of got) {
      expect(request.payload.version).toBe(1);
      expect(new Date(request.payload.timestamp).toISOString()).toBe(request.payload.timestamp);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f-]{36}$/);
      // A draft's words leave only with its publication.
      if (request.payload.type !== 'post.published') {
        expect(request.body).not.toContain('Hidden words');
        expect(request.body).not.toContain('Still hidden');
      }
      expect(request.body).not.toContain(reader.user.email);
      expect(request.body).not.toMatch(/password|email/i);
    }
    const byType = (type: string) => got.filter((request) => request.payload.type === type);
    expect(byType('user.created')[0].payload.data.user).toEqual({
      id: reader.user.id,
      handle: reader.user.handle,
      name: reader.user.name,
      role: 'AUTHOR',
      createdAt: expect.any(String),
    });
    expect(
      byType('post.published')
        .map((request) => request.payload.data.post.id)
        .sort(),
    ).toEqual([published.id, draft.id].sort());
    expect(byType('post.updated')[0].payload.data.post).toMatchObject({
      id: published.id,
      title: 'Webhook news, edited',
      slug: 'webhook-news',
    });
    expect(byType('post.scheduled')[0].payload.data.post).toMatchObject({
      id: draft.id,
      scheduledAt: at,
    });
    expect(byType('post.unpublished')[0].payload.data.post).toMatchObject({
      id: published.id,
      wasPublished: true,
    });
    expect(byType('post.deleted')[0].payload.data.post).toMatchObject({
      id: draft.id,
      wasPublished: true,
    });
    expect(byType('comment.created')[0].payload.data.comment).toMatchObject({
      postId: published.id,
      text: 'Nice',
    });
    // One message id per event, every attempt a success.
    expect(new Set(got.map((request) => request.headers['webhook-id'])).size).toBe(types.length);
    await until(
      'the log',
      async () =>
        (await deliveriesOf(id)).filter((d) => d.status === 'SUCCEEDED').length === types.length,
    );
    const log = await deliveriesOf(id);
    expect(
      log.every((d) => d.attempt === 1 && d.responseCode === 200 && d.responseSnippet === 'ok'),
    ).toBe(true);
    await deleteWebhook(id);
  });

  it('should tell of the posts that moderation hides, shows again and deletes, and that go with an account', async () => {
    const { id } = await webhook('/gone', ['POST_PUBLISHED', 'POST_UNPUBLISHED', 'POST_DELETED']);
    const writer = await t.signUp();
    const readers = [await t.signUp(), await t.signUp()];
    const reported = await publish('Reported', writer.token);
    const deleted = await publish('Deleted by moderation', writer.token);
    const kept = await publish('Gone with the account', writer.token);
    await t.data(
      CREATE_POST,
      { input: { title: 'A draft of theirs', content: 'Never public', publish: false } },
      writer.token,
    );
    const report = (postId: string, reader: TestUser) =>
      t.data(
        'mutation ($id: ID!) { reportPost(postId: $id, reason: SPAM) }',
        { id: postId },
        reader.token,
      );
    const resolve = async (postId: string, action: string) => {
      const { moderationQueue } = await t.data(
        '{ moderationQueue(first: 100) { edges { node { id target { ... on Post { id } } } } } }',
        {},
        admin.token,
      );
      const item = moderationQueue.edges.find((edge: any) => edge.node.target.id === postId);
      await t.data(
        'mutation ($id: ID!, $action: ReportAction!) { resolveReport(id: $id, action: $action) { id } }',
        { id: item.node.id, action },
        admin.token,
      );
    };
    const before = await until('the publications', () => receiver.at('/gone').length >= 3 && 3);
    // Two reports hide a post (MODERATION_AUTO_HIDE_REPORTS); dismissing them shows it again.
    for (const reader of readers) await report(reported.id, reader);
    await resolve(reported.id, 'DISMISS');
    await report(deleted.id, readers[0]);
    await resolve(deleted.id, 'DELETE');
    const { deleteAccount } = await t.data(
      'mutation ($password: String!) { deleteAccount(password: $password) }',
      { password: writer.password },
      writer.token,
    );
    expect(deleteAccount).toBe(writer.user.id);

    const told = await until('the events of moderation and of the deletion', () => {
      const got = receiver.at('/gone').slice(before);
      return got.length >= 5 && got;
    });
    const events = told.map((request) => `${request.payload.type} ${request.payload.data.post.id}`);
    expect(events.sort()).toEqual(
      [
        `post.unpublished ${reported.id}`,
        `post.published ${reported.id}`,
        `post.deleted ${deleted.id}`,
        `post.deleted ${reported.id}`,
        `post.deleted ${kept.id}`,
      ].sort(),
    );
    const hidden = told.find((request) => request.payload.type === 'post.unpublished')!;
    expect(hidden.payload.data.post).toMatchObject({ slug: 'reported', wasPublished: true });
    await t.app.get(WebhookDispatcher).settled();
    expect(receiver.at('/gone')).toHaveLength(before + 5);
    await deleteWebhook(id);
  });

  it('should wake the worker once the event has committed, however long its transaction takes', async () => {
    const { id } = await webhook('/slow-commit', ['USER_CREATED']);
    const userId = newId();
    await t.app.get(Sql).transaction(async (sql) => {
      const user = {
        id: userId,
        handle: 'slow',
        name: 'Slow',
        role: 'AUTHOR',
        createdAt: new Date(),
      };
      await t.app.get(WebhookOutbox).userCreated(sql, user);
      // Longer than the worker waits after a wake, so that a wake before the commit finds nothing.
      await new Promise((resolve) => setTimeout(resolve, 300));
    });

    await t.app.get(WebhookDispatcher).settled();
    expect(receiver.at('/slow-commit').map((request) => request.payload.data.user.id)).toEqual([
      userId,
    ]);
    await deleteWebhook(id);
  });

  it('should retry a failing receiver with backoff and the same webhook-id, and log each attempt', async () => {
    const { id } = await webhook('/flaky', ['POST_PUBLISHED'], (response, count) => {
      response.statusCode = count <= 2 ? 503 : 200;
      response.end(count <= 2 ? 'busy' : 'done');
    });
    await publish('Flaky news');
    const got = await until(
      'the third attempt',
      () => receiver.at('/flaky').length >= 3 && receiver.at('/flaky'),
    );
    expect(new Set(got.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((request) => request.body)).size).toBe(1);
    const log = await until('the log of three attempts', async () => {
      const found = await deliveriesOf(id);
      return found.some((d) => d.status === 'SUCCEEDED') && found;
    });
    expect(log.map((d) => [d.attempt, d.status, d.responseCode, d.responseSnippet])).toEqual([
      [3, 'SUCCEEDED', 200, 'done'],
      [2, 'FAILED', 503, 'busy'],
      [1, 'FAILED', 503, 'busy'],
    ]);
    expect(new Set(log.map((d) => d.messageId))).toEqual(new Set([got[0].headers['webhook-id']]));
    const [third, second, first] = log;
    // Each failure names when its retry is due; the success, none.
    expect(new Date(first.nextAttemptAt).getTime()).toBeGreaterThan(
      new Date(first.attemptedAt).getTime(),
    );
    expect(new Date(second.nextAttemptAt).getTime()).toBeGreaterThan(
      new Date(second.attemptedAt).getTime(),
    );
    expect(third.nextAttemptAt).toBeNull();
    expect(first.durationMs).toEqual(expect.any(Number));
    await deleteWebhook(id);
  });

  it('should log a redirect as a failed attempt with its status, and not follow it', async () => {
    const { id } = await webhook('/moved', ['POST_PUBLISHED'], (response) => {
      response.writeHead(302, { location: receiver.url('/target') });
      response.end();
    });
    receiver.expect('/target', ['none']);
    await publish('Moved news');
    const [attempt] = await until('the redirect logged', async () => {
      const found = (await deliveriesOf(id)).filter(
        (d) => d.attempt === 1 && d.status !== 'PENDING',
      );
      return found.length > 0 && found;
    });
    expect(attempt).toMatchObject({ status: 'FAILED', responseCode: 302 });
    expect(attempt.error).toMatch(/Redirected \(302/);
    await deleteWebhook(id);
    await t.app.get(WebhookDispatcher).settled();
    expect(receiver.at('/target')).toEqual([]);
    expect(receiver.unverified.filter((line) => line.startsWith('/target'))).toEqual([]);
  });

  it('should give up on a receiver that does not answer in time', async () => {
    const hanging: ServerResponse[] = [];
    const { id } = await webhook('/hang', ['POST_PUBLISHED'], (response) => hanging.push(response));
    await publish('Slow news');
    const [attempt] = await until('the timeout logged', async () => {
      const found = (await deliveriesOf(id)).filter(
        (d) => d.attempt === 1 && d.status !== 'PENDING',
      );
      return found.length > 0 && found;
    });
    expect(attempt).toMatchObject({
      status: 'FAILED',
      responseCode: null,
      error: 'No answer within 1000 ms.',
    });
    expect(attempt.durationMs).toEqual(expect.any(Number));
    await deleteWebhook(id);
    hanging.forEach((response) => response.destroy());
  });

  it('should read 1 kB of an answer and drop the rest, closing the connection', async () => {
    const ends: boolean[] = [];
    const { id } = await webhook('/chatty', ['POST_PUBLISHED'], (response) => {
      // 16 MB, written as the client takes it: a client that reads it all would finish.
      const chunk = Buffer.alloc(65_536, 'é');
      let left = 256;
      const write = () => {
        while (left > 0) {
          left--;
          if (!response.write(chunk)) return void response.once('drain', write);
        }
        response.end();
      };
      response.on('close', () => ends.push(response.writableFinished));
      write();
    });
    await publish('Chatty news');
    const [attempt] = await until('the answer logged', async () => {
      const found = (await deliveriesOf(id)).filter((d) => d.status === 'SUCCEEDED');
      return found.length > 0 && found;
    });
    expect(Buffer.byteLength(attempt.responseSnippet)).toBeLessThanOrEqual(1024);
    expect(attempt.responseSnippet).toMatch(/^é+$/);
    expect(attempt.responseSnippet.length).toBe(512);
    await until('the connection closed', () => ends.length > 0);
    expect(ends).toEqual([false]);
    await deleteWebhook(id);
  });

  it('should refuse cloud metadata targets even when private ones are allowed: at creation, and at send time', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://metadata.google.internal/computeMetadata/v1/',
    ]) {
      const { errors } = await t.gql(
        CREATE_WEBHOOK,
        { input: { url, events: ['POST_PUBLISHED'] } },
        admin.token,
      );
      expect(errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.url' });
      expect(errors?.[0]?.message).toMatch(/metadata/);
    }
    // A target that points there later (a name resolved anew, a row from an earlier version).
    const created = await t.data(
      CREATE_WEBHOOK,
      { input: { url: receiver.url('/metadata'), events: ['POST_PUBLISHED'] } },
      admin.token,
    );
    const { id } = created.createWebhook.webhook;
    await t.dataSource.query(
      `UPDATE webhooks SET url = 'http://169.254.169.254/latest/meta-data/' WHERE id = '${id}'`,
    );
    const connections = receiver.connections;
    await publish('Metadata news');
    const [attempt] = await until('the refusal logged', async () => {
      const found = (await deliveriesOf(id)).filter(
        (d) => d.attempt === 1 && d.status !== 'PENDING',
      );
      return found.length > 0 && found;
    });
    expect(attempt).toMatchObject({ status: 'FAILED', responseCode: null, durationMs: null });
    expect(attempt.error).toMatch(/metadata/);
    expect(receiver.connections).toBe(connections);
    await deleteWebhook(id);
  });

  it('should send a PING on testWebhook, and redeliver an event with its webhook-id', async () => {
    const { id, secret } = await webhook('/ping', ['USER_CREATED']);
    const { testWebhook } = await t.data(
      `mutation ($id: ID!) { testWebhook(id: $id) { ${DELIVERY} } }`,
      { id },
      admin.token,
    );
    expect(testWebhook).toMatchObject({
      event: 'PING',
      status: 'PENDING',
      attempt: 1,
      manual: true,
    });
    const [ping] = await until(
      'the ping',
      () => receiver.at('/ping').length > 0 && receiver.at('/ping'),
    );
    expect(ping.payload).toMatchObject({ type: 'ping', version: 1, data: { webhookId: id } });
    expect(ping.headers['webhook-id']).toBe(testWebhook.messageId);
    expect(
      new StandardWebhook(secret).verify(ping.body, ping.headers as Record<string, string>),
    ).toEqual(ping.payload);

    const { redeliverWebhook } = await t.data(
      `mutation ($id: ID!) { redeliverWebhook(deliveryId: $id) { ${DELIVERY} } }`,
      { id: testWebhook.id },
      admin.token,
    );
    expect(redeliverWebhook).toMatchObject({
      event: 'PING',
      status: 'PENDING',
      attempt: 2,
      manual: true,
      messageId: testWebhook.messageId,
    });
    const again = await until(
      'the redelivery',
      () => receiver.at('/ping').length > 1 && receiver.at('/ping'),
    );
    expect(again[1].headers['webhook-id']).toBe(ping.headers['webhook-id']);
    expect(again[1].body).toBe(ping.body);
    const missing = await t.gql(
      `mutation { redeliverWebhook(deliveryId: "01900000-0000-7000-8000-000000000000") { id } }`,
      {},
      admin.token,
    );
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    await deleteWebhook(id);
  });

  it('should sign with the old secret beside the new one after a rotation', async () => {
    const { id, secret } = await webhook('/rotate', ['POST_PUBLISHED']);
    const { rotateWebhookSecret } = await t.data(
      `mutation ($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { id } } }`,
      { id },
      admin.token,
    );
    expect(rotateWebhookSecret.secret).not.toBe(secret);
    receiver.expect('/rotate', [rotateWebhookSecret.secret, secret]);
    await publish('Rotated news');
    const [request] = await until(
      'the delivery',
      () => receiver.at('/rotate').length > 0 && receiver.at('/rotate'),
    );
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    await deleteWebhook(id);
  });

  it('should disable a webhook after DISABLE_AFTER failed events, and tell every admin', async () => {
    const { id } = await webhook('/down', ['POST_PUBLISHED'], (response) => {
      response.statusCode = 500;
      response.end('down');
    });
    for (const n of [1, 2, 3]) await publish(`Doomed news ${n}`);
    const disabled = await until('the webhook disabled', async () => {
      const { webhooks } = await t.data(
        `{ webhooks(first: 100) { edges { node { ${WEBHOOK} } } } }`,
        {},
        admin.token,
      );
      const node = webhooks.edges.find((edge: any) => edge.node.id === id).node;
      return !node.enabled && node;
    });
    expect(disabled.consecutiveFailures).toBe(3);
    expect(receiver.at('/down')).toHaveLength(9);
    const { notifications } = await t.data(
      `{ notifications(first: 20) { edges { node { kind actor { id } post { id } } } } }`,
      {},
      admin.token,
    );
    expect(notifications.edges.map((edge: any) => edge.node)).toContainEqual({
      kind: 'WEBHOOK_DISABLED',
      actor: { id: admin.user.id },
      post: null,
    });
    // Disabled, it is told nothing; enabled again, its count starts over.
    await publish('Unheard news');
    await t.app.get(WebhookDispatcher).settled();
    expect(receiver.at('/down')).toHaveLength(9);
    const { updateWebhook } = await t.data(
      `mutation ($id: ID!) { updateWebhook(id: $id, input: { enabled: true, description: "back" }) { ${WEBHOOK} } }`,
      { id },
      admin.token,
    );
    expect(updateWebhook).toMatchObject({
      enabled: true,
      consecutiveFailures: 0,
      description: 'back',
    });
    await deleteWebhook(id);
  });

  it('should never deliver an event whose transaction rolled back', async () => {
    const { id } = await webhook('/rollback', ['POST_PUBLISHED']);
    const draft = (
      await t.data(
        CREATE_POST,
        { input: { title: 'Rolled back', content: 'x', publish: false } },
        author.token,
      )
    ).createPost;
    // The publication's fan-out row is written after its event, in the same transaction.
    const postgres = testDatabase() === 'postgres';
    await t.dataSource.query(
      postgres
        ? `CREATE FUNCTION refuse_insert() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`
        : `CREATE TRIGGER refuse_insert BEFORE INSERT ON publication_fan_outs BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
    if (postgres) {
      await t.dataSource.query(
        'CREATE TRIGGER refuse_insert BEFORE INSERT ON publication_fan_outs FOR EACH ROW EXECUTE FUNCTION refuse_insert()',
      );
    }
    const failed = await t.gql(PUBLISH_POST, { id: draft.id }, author.token);
    expect(failed.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    await t.dataSource.query(
      postgres
        ? 'DROP TRIGGER refuse_insert ON publication_fan_outs'
        : 'DROP TRIGGER refuse_insert',
    );
    if (postgres) await t.dataSource.query('DROP FUNCTION refuse_insert()');
    await t.app.get(WebhookDispatcher).settled();
    expect(await deliveriesOf(id)).toEqual([]);
    await t.data(PUBLISH_POST, { id: draft.id }, author.token);
    const [request] = await until(
      'the committed event',
      () => receiver.at('/rollback').length > 0 && receiver.at('/rollback'),
    );
    await t.app.get(WebhookDispatcher).settled();
    expect(receiver.at('/rollback')).toEqual([request]);
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(['SUCCEEDED']);
    await deleteWebhook(id);
  });

  it('should page the delivery log with cursors, newest first', async () => {
    const { id } = await webhook('/paged', ['POST_PUBLISHED']);
    for (const n of [1, 2, 3]) await publish(`Paged news ${n}`);
    await until('three deliveries', () => receiver.at('/paged').length === 3);
    const all = await deliveriesOf(id);
    const node = (await t.data(DELIVERIES, { id, first: 2 }, admin.token)).webhook;
    expect(node.deliveries.pageInfo.hasNextPage).toBe(true);
    const after = node.deliveries.pageInfo.endCursor;
    const rest = (await t.data(DELIVERIES, { id, first: 2, after }, admin.token)).webhook
      .deliveries;
    expect([...node.deliveries.edges, ...rest.edges].map((edge: any) => edge.node.id)).toEqual(
      all.map((d) => d.id),
    );
    expect(rest.pageInfo.hasNextPage).toBe(false);
    const hostile = [
      'bm9wZQ',
      Buffer.from(`delivery:${id}\u0000`).toString('base64url'),
      Buffer.from([...Buffer.from('delivery:'), 0xc3, 0x28]).toString('base64url'),
      Buffer.from(`delivery:${id}?`).toString('base64'),
      Buffer.from(`webhook:${id}`).toString('base64url'),
    ];
    for (const cursor of hostile) {
      const bad = await t.gql(DELIVERIES, { id, first: 2, after: cursor }, admin.token);
      expect(bad.errors?.map((error) => error.extensions)).toEqual([
        { code: 'BAD_USER_INPUT', field: 'after' },
      ]);
    }
    // Every webhook's page in one statement.
    const { count } = await t.counted(
      `{ webhooks(first: 20) { edges { node { deliveries(first: 5) { edges { node { id } } } } } } }`,
      {},
      admin.token,
    );
    expect(count).toBeLessThanOrEqual(4);
    await deleteWebhook(id);
  });

  describe('without WEBHOOK_ALLOW_PRIVATE or WEBHOOK_ALLOW_HTTP', () => {
    let strict: TestApp;
    let owner: TestUser;

    beforeAll(async () => {
      strict = await TestApp.start({
        env: { ...ENV, WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE: 'false' },
      });
      owner = await strict.signUp();
      await strict.makeAdmin(owner.user.id);
    });

    afterAll(() => strict?.close());

    it('should refuse an http target', async () => {
      const { errors } = await strict.gql(
        CREATE_WEBHOOK,
        { input: { url: receiver.url('/plain'), events: ['POST_PUBLISHED'] } },
        owner.token,
      );
      expect(errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.url' });
      expect(errors?.[0]?.message).toMatch(/WEBHOOK_ALLOW_HTTP/);
    });

    it('should refuse a loopback or private address at creation, and a name that resolves to one at send time', async () => {
      for (const url of [
        receiver.url('/strict', '127.0.0.1', 'https'),
        receiver.url('/strict', '[::ffff:127.0.0.1]', 'https'),
        'https://10.0.0.1/hook',
      ]) {
        const { errors } = await strict.gql(
          CREATE_WEBHOOK,
          { input: { url, events: ['POST_PUBLISHED'] } },
          owner.token,
        );
        expect(errors?.[0]?.extensions).toMatchObject({
          code: 'BAD_USER_INPUT',
          field: 'input.url',
        });
        expect(errors?.[0]?.message).toMatch(/WEBHOOK_ALLOW_PRIVATE=true allows it/);
      }

      const connections = receiver.connections;
      const { createWebhook } = await strict.data(
        CREATE_WEBHOOK,
        {
          input: { url: receiver.url('/strict', 'localhost', 'https'), events: ['POST_PUBLISHED'] },
        },
        owner.token,
      );
      // And an address stored before the rule (a row from an earlier version, say).
      const stored = await strict.data(
        CREATE_WEBHOOK,
        { input: { url: 'https://hooks.example.com/strict', events: ['POST_PUBLISHED'] } },
        owner.token,
      );
      await strict.dataSource.query(
        `UPDATE webhooks SET url = 'https://10.0.0.1/hook' WHERE id = '${stored.createWebhook.webhook.id}'`,
      );
      await publish('Strict news', owner.token, strict);
      for (const id of [createWebhook.webhook.id, stored.createWebhook.webhook.id]) {
        const [attempt] = await until('the refusal logged', async () => {
          const found = (await deliveriesOf(id, strict, owner.token)).filter(
            (d) => d.attempt === 1 && d.status !== 'PENDING',
          );
          return found.length > 0 && found;
        });
        expect(attempt).toMatchObject({ status: 'FAILED', responseCode: null, durationMs: null });
        expect(attempt.error).toMatch(
          /^Refused: .* is a (loopback|private) address; WEBHOOK_ALLOW_PRIVATE=true allows it\.$/,
        );
      }
      expect(receiver.connections).toBe(connections);
    });
  });

  describe('across a crash', () => {
    it('should deliver an event committed while no worker ran, once another instance starts', async () => {
      const postgres = testDatabase() === 'postgres';
      const dataDir = postgres ? undefined : mkdtempSync(join(tmpdir(), 'blog-webhooks-'));
      const first = await TestApp.start({ env: ENV, dataDir });
      let second: TestApp | undefined;
      try {
        const owner = await first.signUp();
        await first.makeAdmin(owner.user.id);
        const { createWebhook } = await first.data(
          CREATE_WEBHOOK,
          { input: { url: receiver.url('/crash'), events: ['POST_PUBLISHED'] } },
          owner.token,
        );
        receiver.expect('/crash', [createWebhook.secret]);
        // The worker dies first: the event commits, and nothing sends it.
        await first.app.get(WebhookDispatcher).beforeApplicationShutdown();
        await publish('Crash news', owner.token, first);
        const another = await publish('Mid-send news', owner.token, first);
        // The second one was claimed by the dead worker, mid-send, for as long as a claim lasts.
        const lease = new Date(Date.now() + 6_000);
        await first.dataSource.query(
          `UPDATE webhook_deliveries SET lease_expires_at = ${postgres ? '$1' : '?'} WHERE payload LIKE ${postgres ? '$2' : '?'}`,
          [
            postgres ? lease : lease.toISOString().replace('T', ' ').replace('Z', ''),
            `%${another.id}%`,
          ],
        );
        expect(receiver.at('/crash')).toEqual([]);
        if (postgres) {
          second = await TestApp.start({ env: ENV, shareDatabaseOf: first });
        } else {
          await first.close();
          second = await TestApp.start({ env: ENV, dataDir });
        }
        const got = await until(
          'both events',
          () => receiver.at('/crash').length >= 2 && receiver.at('/crash'),
          20_000,
        );
        expect(got.map((request) => request.payload.data.post.title).sort()).toEqual([
          'Crash news',
          'Mid-send news',
        ]);
      } finally {
        await second?.close();
        if (postgres) await first.close();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      }
    }, 40_000);
  });

  // Instances share one database on PostgreSQL only: SQLite's file has one process.
  if (testDatabase() === 'postgres') {
    describe('on two instances of one database', () => {
      it('should make exactly one successful delivery per event and webhook', async () => {
        const other = await TestApp.start({ env: ENV, shareDatabaseOf: t });
        try {
          const successes = new Map<string, number>();
          const seen = new Set<string>();
          const { id } = await webhook(
            '/shared',
            ['POST_PUBLISHED'],
            (response, count, headers) => {
              // Every third request fails if it is its event's first, so that retries are shared
              // too, and no event runs out of attempts; the rest answer late.
              const messageId = String(headers['webhook-id']);
              const fails = count % 3 === 0 && !seen.has(messageId);
              seen.add(messageId);
              if (!fails) successes.set(messageId, (successes.get(messageId) ?? 0) + 1);
              setTimeout(() => {
                response.statusCode = fails ? 500 : 200;
                response.end();
              }, 20);
            },
          );
          const events = 20;
          const posts = await Promise.all(
            Array.from({ length: events }, (_, n) =>
              publish(`Shared news ${n}`, author.token, n % 2 ? other : t),
            ),
          );
          const statusesOf = async () =>
            (await t.dataSource.query(
              `SELECT message_id, status FROM webhook_deliveries WHERE webhook_id = $1`,
              [id],
            )) as { message_id: string; status: string }[];
          await until(
            'every event delivered',
            async () => {
              const rows = await statusesOf();
              return (
                rows.filter((row) => row.status === 'SUCCEEDED').length >= events &&
                !rows.some((row) => row.status === 'PENDING')
              );
            },
            30_000,
          );
          await Promise.all([
            t.app.get(WebhookDispatcher).settled(),
            other.app.get(WebhookDispatcher).settled(),
          ]);
          const rows = await statusesOf();
          const succeeded = rows
            .filter((row) => row.status === 'SUCCEEDED')
            .map((row) => row.message_id);
          expect(succeeded).toHaveLength(events);
          expect(new Set(succeeded).size).toBe(events);
          // Each event answered 200 exactly once: retried after a failure, never sent twice.
          expect(successes.size).toBe(events);
          expect([...successes.values()].every((count) => count === 1)).toBe(true);
          const postIds = receiver.at('/shared').map((request) => request.payload.data.post.id);
          expect(new Set(postIds)).toEqual(new Set(posts.map((post) => post.id)));
          await deleteWebhook(id);
        } finally {
          await other.close();
        }
      }, 60_000);
    });
  }
});
