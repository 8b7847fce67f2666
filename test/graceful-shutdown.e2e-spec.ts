import { execFileSync } from 'node:child_process';
import { connect, Socket } from 'node:net';

import { BuiltService, ROOT, within } from './helpers/built-service';
import { collect, wsClient } from './helpers/ws-client';

interface RawResponse {
  status: number;
  headers: string;
  body: string;
}

/**
 * An HTTP/1.1 connection driven by hand, so that a request can be held half sent: the test
 * decides when the rest of its bytes go out. Responses are read in order, by Content-Length.
 */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private ended = false;
  private wake: () => void = () => undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static async open(port: number): Promise<RawConnection> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawConnection(socket);
  }

  send(text: string): void {
    this.socket.write(text);
  }

  /** The next response, or null when the server closes the connection first. */
  async response(timeoutMs = 10_000): Promise<RawResponse | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.take();
      if (parsed) return parsed;
      if (this.ended) return null;
      if (Date.now() > deadline) throw new Error(`No response within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 50);
      });
    }
  }

  get closed(): boolean {
    return this.ended;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private take(): RawResponse | null {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const headers = this.buffer.subarray(0, end).toString();
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headers)?.[1] ?? 0);
    if (this.buffer.length < end + 4 + length) return null;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString();
    this.buffer = this.buffer.subarray(end + 4 + length);
    return { status, headers, body };
  }
}

const POSTS_QUERY = JSON.stringify({ query: '{ posts(first: 1) { id } }' });

/**
 * Starts a POST /graphql whose body is held back: `Expect: 100-continue` makes the server answer
 * `100 Continue` once it has read the headers, so the request is known to be in flight.
 */
async function requestInFlight(port: number, body: string): Promise<RawConnection> {
  const connection = await RawConnection.open(port);
  connection.send(
    'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Expect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
  );
  const interim = await connection.response();
  expect(interim?.status).toBe(100);
  connection.send(body.slice(0, 10));
  return connection;
}

describe('Graceful shutdown of the built service (e2e)', () => {
  let service: BuiltService | undefined;
  const connections: RawConnection[] = [];

  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
  }, 240_000);

  afterEach(async () => {
    for (const connection of connections.splice(0)) connection.destroy();
    await service?.stop();
    service = undefined;
  });

  it('should finish the request in flight, close subscriptions with 1001 and exit 0 on SIGTERM', async () => {
    service = await BuiltService.start();
    const { client, closed } = wsClient(`ws://127.0.0.1:${service.port}/graphql`);
    await within(new Promise((resolve) => client.on('connected', resolve)), 10_000, 'graphql-ws');
    const subscription = collect(client, 'subscription { postCreated { id } }');
    const slow = await requestInFlight(service.port, POSTS_QUERY);
    connections.push(slow);

    service.child.kill('SIGTERM');

    expect(await within(closed, 10_000, 'the WebSocket to close')).toMatchObject({ code: 1001 });
    // The shutdown has begun: the rest of the body, and a readiness probe pipelined behind it.
    slow.send(POSTS_QUERY.slice(10) + 'GET /health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const answer = await slow.response();
    expect(answer?.status).toBe(200);
    expect(JSON.parse(answer!.body)).toEqual({ data: { posts: [] } });
    expect((await slow.response())?.status).toBe(503);

    expect(await within(service.exited, 15_000, 'the service to exit')).toEqual({
      code: 0,
      signal: null,
    });
    expect(subscription.completed).toBe(true);
    expect(service.log).toContain('SIGTERM: finishing the requests in flight');
  });

  it('should refuse new connections on SIGINT while the request in flight finishes, then exit 0', async () => {
    service = await BuiltService.start();
    const slow = await requestInFlight(service.port, POSTS_QUERY);
    connections.push(slow);
    const { client, closed } = wsClient(`ws://127.0.0.1:${service.port}/graphql`);
    await within(new Promise((resolve) => client.on('connected', resolve)), 10_000, 'graphql-ws');

    service.child.kill('SIGINT');

    await within(closed, 10_000, 'the WebSocket to close');
    const refused = await within(
      (async () => {
        // The listening socket closes right after the WebSocket connections; until then a
        // new connection may still be accepted, and is answered 503.
        for (;;) {
          try {
            const probe = await RawConnection.open(service!.port);
            connections.push(probe);
            probe.send('GET /health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
            const response = await probe.response();
            expect(response === null || response.status === 503).toBe(true);
          } catch (error) {
            return (error as NodeJS.ErrnoException).code;
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })(),
      10_000,
      'a connection to be refused',
    );
    expect(refused).toBe('ECONNREFUSED');
    slow.send(POSTS_QUERY.slice(10));
    expect((await slow.response())?.status).toBe(200);
    expect(await within(service.exited, 15_000, 'the service to exit')).toEqual({
      code: 0,
      signal: null,
    });
  });

  it('should cut a request still running after SHUTDOWN_TIMEOUT_MS and exit 1', async () => {
    service = await BuiltService.start({ SHUTDOWN_TIMEOUT_MS: '1000' });
    const stuck = await requestInFlight(service.port, POSTS_QUERY);
    connections.push(stuck);

    service.child.kill('SIGTERM');

    expect(await within(service.exited, 10_000, 'the service to exit')).toEqual({
      code: 1,
      signal: null,
    });
    expect(await stuck.response()).toBeNull();
    expect(service.log).toContain('Requests still running after 1000 ms');
  });
});
