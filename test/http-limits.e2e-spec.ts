import { connect, Socket } from 'node:net';

import { TestApp } from './helpers/test-app';
import { settle } from './helpers/ws-client';

/** A raw TCP connection to the app, recording whether and what the server answered. */
function open(port: number): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const closed = new Promise<string>((done) => socket.once('close', () => done(answer)));
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

describe('HTTP server limits (e2e)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await TestApp.start({
      // The cap per client would otherwise be a tenth of 3 (1), and this suite's client is one.
      env: {
        HTTP_REQUEST_TIMEOUT_MS: '1000',
        HTTP_MAX_CONNECTIONS: '3',
        HTTP_MAX_CONNECTIONS_PER_CLIENT: '3',
      },
    });
    port = Number(new URL((await t.listen()).http).port);
  });
  afterAll(() => t.close());

  it('should close a connection whose body trickles in slower than HTTP_REQUEST_TIMEOUT_MS', async () => {
    const { socket, closed } = await open(port);
    let isClosed = false;
    void closed.then(() => (isClosed = true));
    socket.write(
      'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 200\r\n\r\n{',
    );
    let sent = 1;
    // One byte every 250 ms would take 50 s to finish the body; the server must end it first.
    while (!isClosed && sent < 40) {
      await settle(250);
      if (!isClosed) socket.write(' ');
      sent += 1;
    }
    expect(isClosed).toBe(true);
    expect(sent).toBeLessThan(40);
    expect(await closed).toMatch(/^HTTP\/1\.1 408/);
    socket.destroy();
  });

  it('should drop connections past HTTP_MAX_CONNECTIONS, and serve again once they close', async () => {
    const idle = await Promise.all([open(port), open(port), open(port)]);
    const extra = await open(port);
    expect(await extra.closed).toBe('');
    idle.forEach(({ socket }) => socket.destroy());
    await Promise.all(idle.map(({ closed }) => closed));
    await settle(100);
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
