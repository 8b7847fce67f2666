import { CREATE_POST } from './helpers/documents';
import { CapturedLogs } from './helpers/logs';
import { TestApp } from './helpers/test-app';
import { settle, wsClient } from './helpers/ws-client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Request ids and logs (e2e)', () => {
  let t: TestApp;
  let logs: CapturedLogs;

  beforeAll(async () => {
    logs = new CapturedLogs();
    t = await TestApp.start({ env: { LOG_LEVEL: 'info' }, logs });
  });
  afterAll(() => t.close());

  describe('x-request-id', () => {
    it('should echo a well-formed id on GraphQL, /health and 404 responses', async () => {
      const graphql = await t.http
        .post('/graphql')
        .set('x-request-id', 'client-id.1_A')
        .send({ query: '{ posts { id } }' });
      expect(graphql.headers['x-request-id']).toBe('client-id.1_A');
      const health = await t.http.get('/health').set('x-request-id', 'health-1');
      expect(health.headers['x-request-id']).toBe('health-1');
      const missing = await t.http.get('/no-such-route').set('x-request-id', 'missing-1');
      expect(missing.status).toBe(404);
      expect(missing.headers['x-request-id']).toBe('missing-1');
    });

    it('should generate an id when none, or a malformed or overlong one, is sent', async () => {
      for (const given of [undefined, 'a'.repeat(129), 'two words', 'semi;colon']) {
        const req = t.http.get('/health');
        if (given !== undefined) req.set('x-request-id', given);
        const response = await req;
        expect(response.headers['x-request-id']).toMatch(UUID);
      }
      const a = await t.http.get('/no-such-route');
      const b = await t.http.get('/no-such-route');
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });
  });

  it('should log one line per operation: request id, name, type, duration, outcome, user and client', async () => {
    const { user, token } = await t.signUp();
    await t.http
      .post('/graphql')
      .set('x-request-id', 'op-line-1')
      .set('authorization', token)
      .send({ query: 'query MyDrafts { myDrafts { id } }' })
      .expect(200);
    const lines = await logs.find({ requestId: 'op-line-1' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      msg: 'graphql operation',
      requestId: 'op-line-1',
      operationName: 'MyDrafts',
      operationType: 'query',
      outcome: 'success',
      errorCodes: [],
      userId: user.id,
      clientAddress: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(typeof lines[0].durationMs).toBe('number');
  });

  it('should give an operation that fails validation a line named from its document', async () => {
    await t.http
      .post('/graphql')
      .set('x-request-id', 'invalid-1')
      .send({ query: 'mutation Broken { noSuchField }' });
    const [line] = await logs.find({ requestId: 'invalid-1' });
    expect(line).toMatchObject({
      msg: 'graphql operation',
      operationName: 'Broken',
      operationType: 'mutation',
      outcome: 'error',
      errorCodes: ['GRAPHQL_VALIDATION_FAILED'],
      userId: null,
    });
  });

  it('should log the error codes of a failed operation, and anonymous operations without a name', async () => {
    await t.http
      .post('/graphql')
      .set('x-request-id', 'anonymous-1')
      .send({ query: CREATE_POST, variables: { input: { title: 'T', content: 'C' } } });
    const [line] = await logs.find({ requestId: 'anonymous-1' });
    expect(line).toMatchObject({
      operationName: null,
      operationType: 'mutation',
      outcome: 'error',
      errorCodes: ['UNAUTHENTICATED'],
    });
  });

  it('should log one access line for a request that is not a GraphQL operation', async () => {
    await t.http.get('/no-such-route?secret=1').set('x-request-id', 'access-1').expect(404);
    const lines = await logs.find({ requestId: 'access-1' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      method: 'GET',
      url: '/no-such-route',
      statusCode: 404,
    });
  });

  it('should log subscription connections opened and closed', async () => {
    const { ws } = await t.listen();
    const { user, token } = await t.signUp();
    const { client, closed } = wsClient(ws, token);
    await settle();
    await client.dispose();
    await closed;
    const [opened] = await logs.find({ msg: 'subscription connection opened' });
    expect(opened).toMatchObject({ clientAddress: expect.stringMatching(/127\.0\.0\.1/) });
    const [close] = await logs.find({ msg: 'subscription connection closed', userId: user.id });
    expect(close).toMatchObject({ code: 1000, durationMs: expect.any(Number) });
  });

  it('should log an unexpected error once, with the request id', async () => {
    const other = new CapturedLogs();
    const broken = await TestApp.start({ logs: other });
    try {
      await broken.dataSource.destroy();
      await broken.http
        .post('/graphql')
        .set('x-request-id', 'fault-1')
        .send({ query: '{ posts { id } }' });
      const lines = await other.find({ requestId: 'fault-1', context: 'GraphQL' });
      expect(lines[0]).toMatchObject({
        level: 'error',
        msg: expect.stringMatching(/^Unexpected error at posts: /),
        stack: expect.stringContaining('\n    at '),
      });
      const unexpected = other.lines.filter((line) => /^Unexpected error/.test(line.msg));
      expect(unexpected).toHaveLength(1);
      const [operation] = await other.find({ requestId: 'fault-1', msg: 'graphql operation' });
      expect(operation.errorCodes).toEqual(['INTERNAL_SERVER_ERROR']);
    } finally {
      await broken.close();
    }
  });

  it('should log SQL statements with the request id and never their parameters when DATABASE_LOGGING=true', async () => {
    const sql = new CapturedLogs();
    const app = await TestApp.start({ env: { DATABASE_LOGGING: 'true' }, logs: sql });
    try {
      await app.http
        .post('/graphql')
        .set('x-request-id', 'sql-1')
        .send({
          query: 'query ($id: ID!) { user(id: $id) { id } }',
          variables: { id: 'zz-find-me' },
        });
      const statements = await sql.find({ requestId: 'sql-1', context: 'TypeORM' });
      expect(statements.length).toBeGreaterThan(0);
      expect(statements[0]).toMatchObject({ msg: 'query', sql: expect.stringMatching(/SELECT/i) });
      expect(sql.text).not.toContain('zz-find-me');
    } finally {
      await app.close();
    }
  });

  describe.each(['debug', 'trace'])('at LOG_LEVEL=%s', (level) => {
    it('should never log a password, a token, the authorization header or a variable value', async () => {
      const captured = new CapturedLogs();
      const app = await TestApp.start({
        env: { LOG_LEVEL: level, DATABASE_LOGGING: 'true' },
        logs: captured,
      });
      const password = 'pw-Zebra-Quartz-9317';
      const email = 'secret.person.4711@example.com';
      try {
        const signUp = await app.data(
          `mutation ($input: SignUpInput!) { signUp(input: $input) { token } }`,
          { input: { name: 'Secret Person', email, password } },
        );
        const token: string = signUp.signUp.token;
        const logIn = await app.data(
          `mutation { logIn(input: {email: "${email}", password: "${password}"}) { token } }`,
        );
        await app.data('{ me { id } }', {}, `Bearer ${token}`);
        await app.gql('{ me { id } }', {}, 'Bearer forged.token-value-5151.x');
        await app.http
          .get('/graphql')
          .set('apollo-require-preflight', 'true')
          .query({
            query: 'query ($id: ID!) { user(id: $id) { id } }',
            variables: JSON.stringify({ id: 'get-variable-value-8080' }),
          });
        const { ws } = await app.listen();
        const { client, closed } = wsClient(ws, `Bearer ${token}`);
        await settle();
        await client.dispose();
        await closed;
        await settle(100);

        const text = captured.text;
        expect(captured.lines.some((line) => line.level === 'debug')).toBe(true);
        for (const secret of [
          password,
          token,
          logIn.logIn.token,
          'forged.token-value-5151',
          'get-variable-value-8080',
          email,
          '$argon2',
          'Bearer',
        ]) {
          expect(text).not.toContain(secret);
        }
        expect(text).not.toMatch(/"authorization"\s*:\s*"(?!\[redacted\])/i);
      } finally {
        await app.close();
      }
    });
  });
});
