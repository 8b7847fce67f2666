import { Client } from 'graphql-ws';

import { fragmentBomb } from './helpers/documents';
import { TestApp } from './helpers/test-app';
import { collect, wsClient } from './helpers/ws-client';

const nest = (depth: number): string =>
  depth <= 1 ? 'id' : `author { posts(first: 1) { ${nest(depth - 2)} } }`;
const aliases = (count: number) =>
  Array.from({ length: count }, (_, i) => `t${i}: __typename`).join(' ');
const directives = (count: number) =>
  Array.from({ length: count }, () => 'id @include(if: true)').join(' ');
const manyTokens = `posts(first: 1) { ${Array.from({ length: 16_000 }, () => 'id').join(' ')} }`;

/** Documents just over each default limit, and what the refusal must name. */
const OVER_LIMIT: [string, string, string][] = [
  ['depth', `{ posts(first: 1) { ${nest(13)} } }`, 'GRAPHQL_VALIDATION_FAILED'],
  ['aliases', `{ ${aliases(31)} }`, 'GRAPHQL_VALIDATION_FAILED'],
  ['directives', `{ posts(first: 1) { ${directives(51)} } }`, 'GRAPHQL_VALIDATION_FAILED'],
];

describe('Document limits on HTTP and WebSocket (e2e)', () => {
  let t: TestApp;
  let ws: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await TestApp.start();
    ws = (await t.listen()).ws;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await t.close();
  });

  it.each(OVER_LIMIT)(
    'should refuse a document over the %s limit over HTTP with 400',
    async (limit, query, code) => {
      await t.fannedOut();
      const before = t.statements.statements.length;
      const response = await t.http.post('/graphql').send({ query });
      expect(response.status).toBe(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code, limit });
      expect(response.body.errors[0].message).toContain(limit);
      expect(t.statements.statements.length).toBe(before);
    },
  );

  it('should let documents at the limits through', async () => {
    const atLimits = `{ posts(first: 1) { ${nest(11)} } ${aliases(29)} }`;
    expect((await t.gql(atLimits)).errors).toBeUndefined();
    expect((await t.gql(`{ posts(first: 1) { ${directives(50)} } }`)).errors).toBeUndefined();
  });

  it('should refuse a document over the token limit before validating it', async () => {
    const query = `{ ${manyTokens} }`;
    const response = await t.http.post('/graphql').send({ query });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(response.body.errors[0].message).toMatch(/15000 tokens/);
  });

  it('should answer 413 to a body over GRAPHQL_MAX_BODY_BYTES', async () => {
    const response = await t.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ query: `{ __typename }`, variables: { pad: 'x'.repeat(110_000) } }));
    expect(response.status).toBe(413);
  });

  it('should refuse a fragment bomb by its shape', async () => {
    const response = await t.http
      .post('/graphql')
      .send({ query: fragmentBomb('{ posts(first: 1)', 16) });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it.each([
    ['depth', `subscription { postCreated { ${nest(13)} } }`],
    ['aliases', `subscription { postCreated { ${aliases(31)} } }`],
    ['directives', `subscription { postCreated { ${directives(51)} } }`],
  ])('should refuse a subscription over the %s limit', async (limit, query) => {
    const { client } = wsClient(ws);
    clients.push(client);
    const [result] = await collect(client, query).next(1);
    expect(result.errors?.[0].extensions).toMatchObject({
      code: 'GRAPHQL_VALIDATION_FAILED',
      limit,
    });
  });

  it('should refuse a subscription over the token limit', async () => {
    const { client } = wsClient(ws);
    clients.push(client);
    const query = `subscription { postCreated { ${manyTokens} } }`.replace(
      'posts(first: 1)',
      'comments(first: 1)',
    );
    const [result] = await collect(client, query).next(1);
    expect(result.errors?.[0].extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
  });
});
