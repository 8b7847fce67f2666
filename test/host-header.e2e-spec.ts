import { CapturedLogs } from './helpers/logs';
import { open } from './helpers/raw-http';
import { TestApp } from './helpers/test-app';

const BODY = '{"query":"{ __typename }"}';
const JSON_HEADERS = `Content-Type: application/json\r\nContent-Length: ${BODY.length}\r\n`;

/** The status line and the parsed body of an answer. */
function parse(answer: string): { status: string; body: any } {
  const headEnd = answer.indexOf('\r\n\r\n');
  return {
    status: answer.slice(0, answer.indexOf('\r\n')),
    body: JSON.parse(answer.slice(headEnd + 4)),
  };
}

describe('Requests without a usable Host (e2e)', () => {
  let t: TestApp;
  let port: number;
  const logs = new CapturedLogs();

  beforeAll(async () => {
    t = await TestApp.start({ logs, env: { TRUST_PROXY: 'loopback' } });
    port = Number(new URL((await t.listen()).http).port);
  });
  afterAll(() => t.close());

  /** Sends `request` on a connection of its own and returns the answer, once it has closed. */
  const send = async (request: string) => {
    const connection = await open(port);
    connection.socket.write(request);
    await connection.closed;
    return parse(connection.answer());
  };

  const errorLines = () =>
    logs.lines.filter((line) => ['error', 'fatal', 50, 60].includes(line.level));

  it.each([
    ['an HTTP/1.0 POST without Host', `POST /graphql HTTP/1.0\r\n${JSON_HEADERS}\r\n${BODY}`],
    [
      'a POST with Host: a b',
      `POST /graphql HTTP/1.1\r\nHost: a b\r\n${JSON_HEADERS}Connection: close\r\n\r\n${BODY}`,
    ],
    [
      'a POST with an empty Host',
      `POST /graphql HTTP/1.1\r\nHost:\r\n${JSON_HEADERS}Connection: close\r\n\r\n${BODY}`,
    ],
    [
      'a GET operation with Host: a b',
      'GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: a b\r\n' +
        'Apollo-Require-Preflight: true\r\nConnection: close\r\n\r\n',
    ],
    [
      'a POST whose trusted proxy forwards the host a b',
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Host: a b\r\n${JSON_HEADERS}` +
        `Connection: close\r\n\r\n${BODY}`,
    ],
  ])('should answer %s 400 BAD_REQUEST, with no error logged', async (_case, request) => {
    const { status, body } = await send(request);
    expect(status).toMatch(/^HTTP\/1\.1 400 /);
    expect(body).toEqual({
      errors: [
        {
          message: 'The Host header is missing or invalid.',
          extensions: { code: 'BAD_REQUEST' },
        },
      ],
    });
    // Logged as any refused request is, not as an error.
    expect(await logs.find({ statusCode: 400 })).not.toEqual([]);
    expect(errorLines()).toEqual([]);
  });

  it.each([
    ['without Host', 'GET /nothing HTTP/1.0\r\n\r\n'],
    ['with Host: a b', 'GET /nothing HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n'],
    ['with an empty Host', 'GET /nothing HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n'],
  ])('should answer another path %s a plain 400', async (_case, request) => {
    const { status, body } = await send(request);
    expect(status).toMatch(/^HTTP\/1\.1 400 /);
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(errorLines()).toEqual([]);
  });

  it.each([['127.0.0.1'], ['blog.example.com:8443'], ['[::1]:3000']])(
    'should still answer a request with Host: %s',
    async (host) => {
      const { status, body } = await send(
        `POST /graphql HTTP/1.1\r\nHost: ${host}\r\n${JSON_HEADERS}Connection: close\r\n\r\n${BODY}`,
      );
      expect(status).toMatch(/^HTTP\/1\.1 200 /);
      expect(body).toEqual({ data: { __typename: 'Query' } });
    },
  );

  it('should still answer the probes without Host, as the health checks of some balancers send them', async () => {
    const { status, body } = await send('GET /health/live HTTP/1.0\r\n\r\n');
    expect(status).toMatch(/^HTTP\/1\.1 200 /);
    expect(body).toEqual({ status: 'ok' });
  });
});
