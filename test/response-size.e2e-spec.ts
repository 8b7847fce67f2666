import { Client } from 'graphql-ws';

import { CompiledExecution } from '../src/blog';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';
import { collect, settle, wsClient } from './helpers/ws-client';

/** Small enough that a single long post, or a page of long titles, passes it. */
const MAX_RESPONSE_BYTES = 16_384;
const LONG_CONTENT = 'x'.repeat(50_000);
const LONG_TITLE = (n: number) => `${n} ${'t'.repeat(190)}`;

const CREATE_POST = `mutation ($input: CreatePostInput!) { createPost(input: $input) { id } }`;

const aliases = (count: number, field: string) =>
  `{ ${Array.from({ length: count }, (_, i) => `d${i}: ${field}`).join(' ')} }`;

/** The one error an answer past the limit is replaced by. */
const TOO_LARGE = {
  data: null,
  errors: [
    {
      message: expect.stringContaining(`larger than ${MAX_RESPONSE_BYTES} bytes`),
      extensions: { code: 'RESPONSE_TOO_LARGE', maxResponseBytes: MAX_RESPONSE_BYTES },
    },
  ],
};

describe('Response size limit (e2e)', () => {
  let t: TestApp;
  let ws: string;
  let drafter: TestUser;
  let titler: TestUser;
  const clients: Client[] = [];

  const post = (user: TestUser, title: string, content: string, publish: boolean) =>
    t.data(CREATE_POST, { input: { title, content, publish } }, user.token);

  beforeAll(async () => {
    t = await TestApp.start({
      env: {
        RATE_LIMIT_WRITES_PER_MINUTE: '10000',
        GRAPHQL_MAX_RESPONSE_BYTES: String(MAX_RESPONSE_BYTES),
      },
    });
    ws = (await t.listen()).ws;
    // The attack of issue 17: 100 drafts of 50,000 characters by one user, within the limits.
    drafter = await t.signUp({ name: 'Drafter' });
    for (let i = 0; i < 100; i++) await post(drafter, `Draft ${i}`, LONG_CONTENT, false);
    // And 100 published posts whose titles are long: a page of them passes the limit without
    // a single large text.
    titler = await t.signUp({ name: 'Titler' });
    for (let i = 0; i < 100; i++) await post(titler, LONG_TITLE(i), 'short', true);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });
  afterAll(() => t.close());

  it('should refuse 30 aliases of a page of long texts by cost, before any statement', async () => {
    for (const [document, token] of [
      [aliases(30, 'myDrafts(first: 100) { content }'), drafter.token],
      [aliases(30, 'posts(first: 100) { content }'), undefined],
      [aliases(30, 'posts(first: 100) { comments(first: 100) { text } }'), undefined],
    ] as const) {
      let response!: { status: number; body: GraphQLResponse };
      const statements = await t.statements.count(async () => {
        const req = t.http.post('/graphql').set('content-type', 'application/json');
        if (token) req.set('authorization', token);
        response = await req.send({ query: document });
      });
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0].extensions).toMatchObject({
        code: 'GRAPHQL_VALIDATION_FAILED',
        limit: 'complexity',
      });
      expect(statements).toBe(0);
    }
  });

  it('should weigh a page of long texts by its page size, and keep the spec queries cheap', async () => {
    const cost = async (document: string) => {
      const response = await t.gql(document, {}, drafter.token);
      return (response.errors?.[0]?.extensions as { complexity?: number } | undefined)?.complexity;
    };
    // One page of 100 contents costs 1 + 100 × 50: four such pages pass 20,000.
    expect(await cost(aliases(4, 'myDrafts(first: 100) { content }'))).toBe(4 * 5_001);
    expect(await cost(aliases(3, 'myDrafts(first: 100) { content }'))).toBeUndefined();
  });

  it('should answer a query within its cost but past the limit with one error, and stop', async () => {
    await t.fannedOut();
    const before = t.statements.statements.length;
    const response = await t.gql(
      '{ myDrafts(first: 100) { content comments { text } author { name } } }',
      {},
      drafter.token,
    );
    expect(response).toEqual(TOO_LARGE);
    // The page was read; its comments and authors never were: execution stopped at the first
    // content past the budget.
    const ran = t.statements.statements.slice(before);
    expect(ran.some((statement) => /FROM posts/i.test(statement))).toBe(true);
    expect(ran.filter((statement) => /FROM comments/i.test(statement))).toEqual([]);
    // Under the limit, the same fields answer.
    const small = await t.data<{ myDrafts: { title: string }[] }>(
      '{ myDrafts(first: 3) { title comments { text } author { name } } }',
      {},
      drafter.token,
    );
    expect(small.myDrafts).toHaveLength(3);
  });

  it('should stop compiled execution of a repeated query too', async () => {
    const execution = t.app.get(CompiledExecution);
    const document = '{ myDrafts(first: 10) { title content } }';
    expect(await t.gql(document, {}, drafter.token)).toEqual(TOO_LARGE);
    await execution.idle();
    const compiledBefore = execution.stats.compiled;
    const documentsBefore = execution.stats.documents;
    expect(documentsBefore).toBeGreaterThan(0);
    expect(await t.gql(document, {}, drafter.token)).toEqual(TOO_LARGE);
    // It ran compiled (and, answering an error, again on graphql-js): never a full answer.
    expect(execution.stats.compiled).toBe(compiledBefore);
  });

  it('should replace an answer whose JSON passes the limit without any large text', async () => {
    const page = '{ posts(first: 100) { id title } }';
    const response = await t.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .send({ query: page });
    expect(response.body).toEqual(TOO_LARGE);
    expect(Buffer.byteLength(response.text)).toBeLessThan(1_000);
    // A smaller page of the same fits.
    const fits = await t.data<{ posts: unknown[] }>('{ posts(first: 10) { id title } }');
    expect(fits.posts).toHaveLength(10);
  });

  it('should replace a subscription event past the limit by the one error, and go on', async () => {
    const connection = wsClient(ws);
    clients.push(connection.client);
    const events = collect(connection.client, 'subscription { postCreated { title content } }');
    await settle();
    await post(drafter, 'Too long to push', LONG_CONTENT, true);
    await post(drafter, 'Short enough', 'A few words.', true);
    const [tooLarge, fits] = await events.next(2);
    expect(tooLarge).toEqual(TOO_LARGE);
    expect(fits).toEqual({
      data: { postCreated: { title: 'Short enough', content: 'A few words.' } },
    });
  });

  it("should measure an event's JSON too: a page of long titles passes the limit", async () => {
    const connection = wsClient(ws);
    clients.push(connection.client);
    const events = collect(
      connection.client,
      'subscription { postCreated { author { posts(first: 100) { id title } } } }',
    );
    await settle();
    await post(titler, 'One more', 'short', true);
    const [event] = await events.next(1);
    expect(event).toEqual(TOO_LARGE);
  });
});
