import { ChildProcess, spawn } from 'node:child_process';

import { Client } from 'graphql-ws';

import { Post } from '../src/blog';
import { CREATE_POST } from './helpers/documents';
import { freePort } from './helpers/ports';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';
import { collect, wsClient } from './helpers/ws-client';
import { BlogEvent } from '../src/blog/events/blog-events';

/** A throwaway redis-server on 127.0.0.1:`port`, without persistence, once it accepts clients. */
async function startRedis(port: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const redis = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start:\n${output}`)),
      10_000,
    );
    redis.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    redis.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  return redis;
}

async function killRedis(redis: ChildProcess | undefined): Promise<void> {
  if (!redis || redis.exitCode !== null || redis.signalCode !== null) return;
  const exited = new Promise((resolve) => redis.once('exit', resolve));
  redis.kill('SIGKILL');
  await exited;
}

/** The promise's value if it settles within `ms`, else 'no answer'. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'no answer'> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'no answer'>((resolve) => {
    timer = setTimeout(() => resolve('no answer'), ms);
  });
  try {
    return await Promise.race([promise, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** Generous for a local write on a busy machine; a request waiting on a dead Redis never ends. */
const ANSWER_BOUND_MS = 5000;

/**
 * Redis dies under a running instance: writes still answer (their live updates are lost and
 * logged), sign-in fails closed with SERVICE_UNAVAILABLE, and subscriptions resume when Redis
 * is back. Runs in the e2e-postgres project when TEST_REDIS_URL is set; the Redis is the test's.
 */
describe('Redis going away under a running instance (e2e)', () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let t: TestApp;
  let writer: TestUser;
  let client: Client | undefined;
  let events: ReturnType<typeof collect<Record<string, any>>>;
  const LOG_IN = `mutation ($input: LogInInput!) { logIn(input: $input) { token } }`;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    t = await TestApp.start({
      env: {
        REDIS_URL: `redis://127.0.0.1:${port}`,
        REDIS_PREFIX: `blog-e2e-${process.pid}:`,
        // The write limit's counters live in this Redis too and fail closed without it
        // (test/rate-limits and write-rate-limit.spec cover that): here, the publish path.
        RATE_LIMIT_WRITES_PER_MINUTE: '0',
      },
    });
    writer = await t.signUp();
    const { ws } = await t.listen();
    client = wsClient(ws).client;
    events = collect(client, `subscription { postCreated { id title } }`);
    await t.untilSubscribed(BlogEvent.PostPublished, 1);
  });
  afterAll(async () => {
    await client?.dispose();
    await t?.close();
    await killRedis(redis);
  });

  const createPost = (title: string) =>
    t.gql<{ createPost: { id: string; title: string } }>(
      CREATE_POST,
      { input: { title, content: 'x' } },
      writer.token,
    );

  it('should deliver a post created while Redis is up', async () => {
    const { data } = await createPost('Before the outage');
    const [event] = await events.next(1, 10_000);
    expect(event?.data?.postCreated).toEqual({
      id: data!.createPost.id,
      title: 'Before the outage',
    });
  });

  it('should answer createPost with the post once Redis is gone, and store it once', async () => {
    await killRedis(redis);
    const answer = await within(createPost('During the outage'), ANSWER_BOUND_MS);

    expect(answer).not.toBe('no answer');
    const { data, errors } = answer as Awaited<ReturnType<typeof createPost>>;
    expect(errors).toBeUndefined();
    expect(data?.createPost.title).toBe('During the outage');
    const rows = await t.dataSource.getRepository(Post).findBy({ title: 'During the outage' });
    expect(rows.map((row) => row.id)).toEqual([data!.createPost.id]);
  });

  it('should refuse logIn with SERVICE_UNAVAILABLE while the rate limiter cannot count', async () => {
    const input = { email: writer.user.email, password: writer.password };
    const answer = await within(t.gql(LOG_IN, { input }), ANSWER_BOUND_MS);

    expect(answer).not.toBe('no answer');
    const { data, errors } = answer as GraphQLResponse;
    expect(data?.logIn ?? null).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors![0].extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect(errors![0].message).not.toMatch(/redis|ECONN|retr|connection|stream/i);
  });

  it('should refuse changePassword and deleteAccount as logIn, and change nothing', async () => {
    const changePassword = `mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { token } }`;
    const deleteAccount = `mutation ($password: String!) { deleteAccount(password: $password) }`;
    for (const [document, variables] of [
      [changePassword, { input: { currentPassword: writer.password, newPassword: 'fresh pass' } }],
      [deleteAccount, { password: writer.password }],
    ] as const) {
      const answer = await within(t.gql(document, variables, writer.token), ANSWER_BOUND_MS);
      expect(answer).not.toBe('no answer');
      expect((answer as GraphQLResponse).errors?.[0].extensions?.code).toBe('SERVICE_UNAVAILABLE');
    }
    // The password is unchanged and the account there: the token still signs the writer in.
    const me = await t.data<{ me: { id: string } | null }>('{ me { id } }', {}, writer.token);
    expect(me.me?.id).toBe(writer.user.id);
  });

  it('should resume the subscription when Redis is back', async () => {
    redis = await startRedis(port);
    const delivered = events.results.length;
    // The connections come back on their own schedule: write until an event gets through.
    let arrived: unknown;
    for (let attempt = 0; attempt < 30 && !arrived; attempt++) {
      const { data } = await createPost(`After the outage ${attempt}`);
      const results = await events.next(delivered + 1, 1000);
      arrived = results
        .slice(delivered)
        .find((result) => result.data?.postCreated?.id === data?.createPost.id);
    }
    expect(arrived).toBeDefined();
  });
});
