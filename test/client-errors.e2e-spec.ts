import { createHash } from 'node:crypto';

import { CapturedLogs } from './helpers/logs';
import { TestApp } from './helpers/test-app';

const USERS = '{ users { id } }';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface ClientError {
  name: string;
  method: 'POST' | 'GET';
  body: Record<string, unknown>;
  status: number;
  /** The status when the client names application/json, where it differs (GraphQL over HTTP). */
  jsonStatus?: number;
  code: string;
}

/** Mistakes of the client: each gets a code and a 4xx status, and is not logged as unexpected. */
const CLIENT_ERRORS: ClientError[] = [
  {
    name: 'an unknown operationName',
    method: 'POST',
    body: { query: 'query A { users { id } }', operationName: 'B' },
    status: 400,
    code: 'OPERATION_RESOLUTION_FAILURE',
  },
  {
    name: 'several operations and no operationName',
    method: 'POST',
    body: { query: 'query A { users { id } } query B { posts { id } }' },
    status: 400,
    code: 'OPERATION_RESOLUTION_FAILURE',
  },
  {
    name: 'an operationName with no named operation',
    method: 'POST',
    body: { query: USERS, operationName: 'Users' },
    status: 400,
    code: 'OPERATION_RESOLUTION_FAILURE',
  },
  {
    name: 'an unknown operationName by GET',
    method: 'GET',
    body: { query: 'query A { users { id } }', operationName: 'B' },
    status: 400,
    code: 'OPERATION_RESOLUTION_FAILURE',
  },
  {
    // Not one operation to resolve: the document itself is invalid (graphql-js's
    // LoneAnonymousOperation rule), as graphql-js answers too.
    name: 'two anonymous operations',
    method: 'POST',
    body: { query: '{ users { id } } { posts { id } }' },
    status: 400,
    // A validation error, which GraphQL over HTTP answers 200 under application/json.
    jsonStatus: 200,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'an APQ hash that does not match its query',
    method: 'POST',
    body: {
      query: USERS,
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ posts { id } }') } },
    },
    status: 400,
    code: 'PERSISTED_QUERY_HASH_MISMATCH',
  },
  {
    name: 'an APQ with a query and no hash',
    method: 'POST',
    body: { query: USERS, extensions: { persistedQuery: { version: 1 } } },
    status: 400,
    code: 'PERSISTED_QUERY_HASH_MISMATCH',
  },
  {
    name: 'an APQ of an unsupported version',
    method: 'POST',
    body: {
      query: USERS,
      extensions: { persistedQuery: { version: 2, sha256Hash: sha256(USERS) } },
    },
    status: 400,
    code: 'PERSISTED_QUERY_NOT_SUPPORTED',
  },
  {
    name: 'an APQ that is not an object',
    method: 'POST',
    body: { query: USERS, extensions: { persistedQuery: 'yes' } },
    status: 400,
    code: 'PERSISTED_QUERY_NOT_SUPPORTED',
  },
  {
    name: 'an APQ hash mismatch by GET',
    method: 'GET',
    body: {
      query: USERS,
      extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } }),
    },
    status: 400,
    code: 'PERSISTED_QUERY_HASH_MISMATCH',
  },
  {
    name: 'a subscription by POST',
    method: 'POST',
    body: { query: 'subscription { postCreated { id } }' },
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'a named subscription by POST among queries',
    method: 'POST',
    body: {
      query: 'query Q { users { id } } subscription S { postCreated { id } }',
      operationName: 'S',
    },
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'a subscription by GET',
    method: 'GET',
    body: { query: 'subscription { postCreated { id title } }' },
    status: 400,
    code: 'BAD_REQUEST',
  },
];

describe.each([
  ['graphql-js (GRAPHQL_JIT=false)', { GRAPHQL_JIT: 'false' }],
  ['the default settings', { GRAPHQL_JIT: undefined, GRAPHQL_JIT_COMPILE_AFTER: undefined }],
  ['every operation compiled', { GRAPHQL_JIT_COMPILE_AFTER: '0' }],
])('Client errors are client errors, on %s (e2e)', (_, env) => {
  let t: TestApp;
  const logs = new CapturedLogs();

  beforeAll(async () => {
    t = await TestApp.start({ env: { ...env, LOG_LEVEL: 'info' }, logs });
  });
  afterAll(() => t.close());

  /** No Accept header, a wildcard as curl and fetch send, and application/json named. */
  const ACCEPTS = [undefined, '*/*', 'application/json'];
  const send = (error: ClientError, accept?: string) => {
    const request =
      error.method === 'POST'
        ? t.http.post('/graphql').set('content-type', 'application/json')
        : t.http.get('/graphql').set('apollo-require-preflight', 'true');
    if (accept) request.set('accept', accept);
    return error.method === 'POST' ? request.send(error.body) : request.query(error.body);
  };

  it.each(CLIENT_ERRORS.map((error) => [error.name, error] as const))(
    'should answer %s with its code and a 4xx status, whatever it accepts, and log no error',
    async (_, error) => {
      const before = logs.raw.length;
      for (const accept of ACCEPTS) {
        const response = await send(error, accept);
        expect({
          status: response.status,
          code: response.body.errors?.[0]?.extensions?.code,
        }).toEqual({
          status: accept === 'application/json' ? (error.jsonStatus ?? error.status) : error.status,
          code: error.code,
        });
        expect(response.body.data).toBeUndefined();
        expect(response.headers['allow']).toBeUndefined();
        expect(response.body.errors[0].message).not.toBe('Internal server error.');
      }
      const lines = logs.lines.slice(before);
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      const operations = lines.filter((line) => line.msg === 'graphql operation');
      expect(operations.map((line) => [...new Set(line.errorCodes)])).toEqual(
        Array(3).fill([error.code]),
      );
    },
  );

  it('should still register and run a well-formed APQ', async () => {
    const hash = sha256(USERS);
    const persistedQuery = { version: 1, sha256Hash: hash };
    const unknown = await t.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .send({ extensions: { persistedQuery } });
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const registered = await t.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .send({ query: USERS, extensions: { persistedQuery } });
    expect(registered.body).toEqual({ data: { users: [] } });
    const byHash = await t.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .send({ extensions: { persistedQuery } });
    expect(byHash.body).toEqual({ data: { users: [] } });
  });
});
