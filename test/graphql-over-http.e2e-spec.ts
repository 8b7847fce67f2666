import { createHash } from 'node:crypto';

import { AuditResult, serverAudits } from 'graphql-http';

import { TestApp } from './helpers/test-app';

const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json';

/** The audits graphql-http runs; every MUST has to pass, and at least this many of them all. */
const MIN_PASSED_AUDITS = 58;

/** Refusals before execution: Apollo's own, and those of OperationRules and trusted documents. */
const REFUSALS: [string, Record<string, unknown>, string][] = [
  ['a document that does not parse', { query: '{ users { id ' }, 'GRAPHQL_PARSE_FAILED'],
  [
    'a document that does not validate',
    { query: '{ users { password } }' },
    'GRAPHQL_VALIDATION_FAILED',
  ],
  [
    'variables that do not fit',
    { query: 'query ($id: ID!) { post(id: $id) { id } }', variables: { id: { not: 'an id' } } },
    'BAD_USER_INPUT',
  ],
  [
    'a document over the alias limit of OperationRules',
    { query: `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: __typename`).join(' ')} }` },
    'GRAPHQL_VALIDATION_FAILED',
  ],
  [
    'text holding a NUL character, refused by OperationRules',
    {
      query: 'query ($h: String!) { userByHandle(handle: $h) { id } }',
      variables: { h: 'a\u0000' },
    },
    'BAD_USER_INPUT',
  ],
  [
    'an unknown documentId',
    { documentId: `sha256:${createHash('sha256').update('{ nothing }').digest('hex')}` },
    'PERSISTED_QUERY_NOT_FOUND',
  ],
];

describe('GraphQL over HTTP (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('should answer application/graphql-response+json when the client asks for it', async () => {
    const response = await t.http
      .post('/graphql')
      .set('accept', `${GRAPHQL_RESPONSE_JSON}, application/json;q=0.9`)
      .send({ query: '{ users { id } }' })
      .expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
    expect(JSON.parse(response.text)).toEqual({ data: { users: [] } });
  });

  describe.each(REFUSALS)('%s', (_name, body, code) => {
    const send = (accept?: string) => {
      const request = t.http.post('/graphql');
      if (accept) request.set('accept', accept);
      return request.send(body);
    };
    const refusalOf = (text: string) => {
      const parsed = JSON.parse(text);
      expect(parsed.data).toBeUndefined();
      expect(parsed.errors[0].extensions.code).toBe(code);
    };

    it('should answer 400 under application/graphql-response+json', async () => {
      const response = await send(GRAPHQL_RESPONSE_JSON);
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
      refusalOf(response.text);
    });

    it('should answer 200 when the client accepts application/json, as the spec recommends', async () => {
      const response = await send('application/json');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      refusalOf(response.text);
    });

    it('should answer 400 when the client accepts any media type, as curl and fetch do', async () => {
      const response = await send('*/*');
      expect(response.status).toBe(400);
      refusalOf(response.text);
    });

    it('should answer 400 when the request has no Accept header', async () => {
      const response = await send();
      expect(response.status).toBe(400);
      refusalOf(response.text);
    });
  });

  it('should keep 400 under application/json for a request that is not GraphQL over HTTP', async () => {
    const noQuery = await t.http
      .post('/graphql')
      .set('accept', 'application/json')
      .send({ variables: {} });
    expect(noQuery.status).toBe(400);
    const notJson = await t.http
      .post('/graphql')
      .set('accept', 'application/json')
      .set('content-type', 'application/json')
      .send('{ "query": ');
    expect(notJson.status).toBe(400);
  });

  it(`should pass every MUST and at least ${MIN_PASSED_AUDITS} of graphql-http's server audits`, async () => {
    const { http: url } = await t.listen();
    const audits = serverAudits({ url });
    const results: AuditResult[] = [];
    for (const audit of audits) results.push(await audit.fn());

    const passed = results.filter((result) => result.status === 'ok');
    const warned = results.filter((result) => ['warn', 'notice'].includes(result.status));
    const failed = results.filter((result) => result.status === 'error');
    const notPassing = [...warned, ...failed].map(
      (result) =>
        `  ${result.status} ${result.id} ${result.name}: ${'reason' in result ? result.reason : ''}`,
    );
    console.log(
      [
        `graphql-http server audits: ${passed.length} of ${audits.length} passed, ${warned.length} warned, ${failed.length} failed`,
        ...notPassing,
      ].join('\n'),
    );
    expect(failed.map((result) => `${result.id} ${result.name}`)).toEqual([]);
    expect(passed.length).toBeGreaterThanOrEqual(MIN_PASSED_AUDITS);
  });
});
