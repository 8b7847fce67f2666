import { INestApplication } from '@nestjs/common';

import { createPostgresDatabase, testDatabase } from './helpers/databases';
import { CREATE_POST } from './helpers/documents';
import { startHostApp } from './helpers/host-app';
import { collect, wsClient } from './helpers/ws-client';

/**
 * examples/host-app booted as its main.ts boots it (Express, the host's own roots), on a
 * database of its own: the host's type and the blog's answer from one endpoint, over HTTP, and
 * the blog's subscriptions over graphql-ws on the host's server.
 */
describe('The host-app example (e2e)', () => {
  let app: INestApplication;
  let http: string;
  let ws: string;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const postgres = testDatabase() === 'postgres' ? await createPostgresDatabase() : null;
    dropDatabase = postgres?.drop;
    const started = await startHostApp(postgres?.url ?? 'sqlite::memory:');
    app = started.app;
    http = `${started.origin}/graphql`;
    ws = http.replace(/^http/, 'ws');
  });
  afterAll(async () => {
    await app?.close();
    await dropDatabase?.();
  });

  async function gql(query: string, variables = {}, authorization?: string) {
    const response = await fetch(http, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
      body: JSON.stringify({ query, variables }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { data?: any; errors?: unknown[] };
  }

  it("should answer the host's own Greeting and the blog's posts in one operation", async () => {
    expect(await gql(`{ greeting(name: "Ada") { message } posts(first: 5) { id } }`)).toEqual({
      data: { greeting: { message: 'Hello, Ada!' }, posts: [] },
    });
  });

  it('should sign up, post and list through the blog, and push posts to a subscriber', async () => {
    const signUp = await gql(
      `mutation ($input: SignUpInput!) { signUp(input: $input) { token user { id } } }`,
      { input: { name: 'Host Writer', email: 'writer@host.example', password: 'long enough' } },
    );
    const token = `Bearer ${signUp.data.signUp.token}`;
    const { client, closed } = wsClient(ws, token);
    const events = collect(client, 'subscription { postCreated { title author { name } } }');

    // The subscription starts a moment after the socket opens: post until it hears one.
    const titles: string[] = [];
    while (events.results.length === 0 && titles.length < 20) {
      const title = `From the host ${titles.length + 1}`;
      const created = await gql(CREATE_POST, { input: { title, content: 'Hi' } }, token);
      expect(created.errors).toBeUndefined();
      titles.push(title);
      await events.next(1, 250);
    }
    const [event] = events.results;
    expect(event.errors).toBeUndefined();
    expect(titles).toContain(event.data?.postCreated.title);
    expect(event.data?.postCreated.author).toEqual({ name: 'Host Writer' });

    const listed = await gql(`{ posts(first: 20) { title author { name } } }`);
    expect(listed.data.posts).toEqual(
      [...titles].reverse().map((title) => ({ title, author: { name: 'Host Writer' } })),
    );
    await client.dispose();
    expect((await closed).code).toBe(1000);
  });
});
