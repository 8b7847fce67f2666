import WebSocket from 'ws';

import { answered, Connection, open, post } from './helpers/raw-http';
import { TestApp } from './helpers/test-app';
import { settle, upgradeStatus } from './helpers/ws-client';
import { PROXY_CONNECTIONS_FACTOR } from '../src/http/connections-per-client';

const OK = /^HTTP\/1\.1 200 /;
const TOO_MANY = /^HTTP\/1\.1 429 /;
const SIGN_UP = `mutation ($input: SignUpInput!) { signUp(input: $input) { user { id } } }`;

/** The bytes of a GET /health/live that keeps its connection, naming `forwardedFor`. */
const live = (forwardedFor: string) =>
  `GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${forwardedFor}\r\n\r\n`;

/**
 * Waits until `count` of `connections` have been closed by the server, checking every 100 ms, 100
 * times at most (the refusal of a silent connection comes after a grace period of a second).
 */
async function untilClosed(connections: Connection[], count: number): Promise<Connection[]> {
  const closed = new Set<Connection>();
  connections.forEach((connection) => void connection.closed.then(() => closed.add(connection)));
  for (let i = 0; i < 100 && closed.size < count; i += 1) await settle(100);
  return [...closed];
}

describe('TRUST_PROXY by address (e2e)', () => {
  let t: TestApp;
  let port: number;
  const opened: Connection[] = [];
  const openFrom = async (address: string) => {
    const connection = await open(port, address);
    opened.push(connection);
    return connection;
  };

  beforeAll(async () => {
    t = await TestApp.start({
      env: {
        // The proxy is 127.0.0.1; any other address reaches the port directly.
        TRUST_PROXY: '127.0.0.1',
        HTTP_MAX_CONNECTIONS: '200',
        HTTP_MAX_CONNECTIONS_PER_CLIENT: '5',
        WS_MAX_CONNECTIONS_PER_CLIENT: '2',
        AUTH_RATE_LIMIT: '10',
      },
    });
    port = Number(new URL((await t.listen()).http).port);
  });
  afterEach(async () => {
    opened.splice(0).forEach(({ socket }) => socket.destroy());
    await settle(100);
  });
  afterAll(() => t.close());

  it('should count the connections of a client that forges X-Forwarded-For for its own address', async () => {
    const forged: Connection[] = [];
    const answers: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const connection = await openFrom('127.0.0.9');
      connection.socket.write(live(`198.51.100.${i}`));
      answers.push(await answered(connection));
      forged.push(connection);
    }
    expect(answers.filter((answer) => OK.test(answer))).toHaveLength(5);
    expect(answers.filter((answer) => TOO_MANY.test(answer))).toHaveLength(15);
    await untilClosed(forged, 15);
    // The five it may hold are still open, and still serve it.
    const kept = forged.filter((connection) => !connection.socket.destroyed);
    expect(kept).toHaveLength(5);
    for (const connection of kept) {
      connection.socket.write(live('198.51.100.99'));
      expect((await answered(connection)).slice(-200)).toContain('"ok"');
    }
  });

  it('should count the sign-ups of a client that forges X-Forwarded-For for its own address', async () => {
    const codes = [];
    for (let i = 0; i < 15; i += 1) {
      const connection = await openFrom('127.0.0.10');
      const input = {
        name: 'Forger',
        email: `forger${i}@example.com`,
        password: 'a long password',
      };
      connection.socket.write(
        post(
          { query: SIGN_UP, variables: { input } },
          undefined,
          `X-Forwarded-For: 203.0.113.${i}\r\n`,
        ),
      );
      await connection.closed;
      const body = connection.answer().slice(connection.answer().indexOf('\r\n\r\n') + 4);
      codes.push(JSON.parse(body).errors?.[0]?.extensions?.code ?? 'OK');
    }
    expect(codes).toEqual([...Array(10).fill('OK'), ...Array(5).fill('TOO_MANY_REQUESTS')]);
  });

  it('should believe X-Forwarded-For from the trusted proxy: each client it forwards has its own limits', async () => {
    const codes = [];
    for (let i = 0; i < 12; i += 1) {
      const connection = await openFrom('127.0.0.1');
      const input = {
        name: 'Reader',
        email: `reader${i}@example.com`,
        password: 'a long password',
      };
      connection.socket.write(
        post(
          { query: SIGN_UP, variables: { input } },
          undefined,
          `X-Forwarded-For: 192.0.2.${i}\r\n`,
        ),
      );
      await connection.closed;
      const body = connection.answer().slice(connection.answer().indexOf('\r\n\r\n') + 4);
      codes.push(JSON.parse(body).errors?.[0]?.extensions?.code ?? 'OK');
    }
    expect(codes).toEqual(Array(12).fill('OK'));
  });

  it('should count idle connections of an address that is not a proxy at the cap, and of the proxy at a multiple of it', async () => {
    const direct = await Promise.all(Array.from({ length: 8 }, () => openFrom('127.0.0.11')));
    const proxy = await Promise.all(Array.from({ length: 8 }, () => openFrom('127.0.0.1')));
    const refused = await untilClosed(direct, 3);
    expect(refused).toHaveLength(3);
    for (const connection of refused) expect(connection.answer()).toMatch(TOO_MANY);
    expect(direct.filter((connection) => !connection.socket.destroyed)).toHaveLength(5);
    expect(proxy.filter((connection) => !connection.socket.destroyed)).toHaveLength(8);
  });

  it('should count WebSocket connections by the same address: a forged X-Forwarded-For does not reach past the cap', async () => {
    const url = `ws://127.0.0.1:${port}/graphql`;
    const sockets: WebSocket[] = [];
    const upgrade = (forwardedFor: string) =>
      upgradeStatus(url, sockets, {
        localAddress: '127.0.0.12',
        headers: { 'x-forwarded-for': forwardedFor },
      });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push(await upgrade(`198.51.100.${i}`));
      expect(statuses).toEqual([101, 101, 429]);
    } finally {
      sockets.forEach((socket) => socket.terminate());
    }
  });
});

describe('TRUST_PROXY by hop count (e2e)', () => {
  let t: TestApp;
  let port: number;
  const opened: Connection[] = [];

  beforeAll(async () => {
    t = await TestApp.start({
      env: { TRUST_PROXY: '1', HTTP_MAX_CONNECTIONS: '200', HTTP_MAX_CONNECTIONS_PER_CLIENT: '2' },
    });
    port = Number(new URL((await t.listen()).http).port);
  });
  afterAll(async () => {
    opened.forEach(({ socket }) => socket.destroy());
    await t.close();
  });

  it('should count connections that send no request against their peer, at a multiple of the cap', async () => {
    const cap = 2 * PROXY_CONNECTIONS_FACTOR;
    for (let i = 0; i < cap + 10; i += 1) opened.push(await open(port, '127.0.0.1'));
    const refused = await untilClosed(opened, 10);
    expect(refused).toHaveLength(10);
    for (const connection of refused) expect(connection.answer()).toMatch(TOO_MANY);
    expect(opened.filter((connection) => !connection.socket.destroyed)).toHaveLength(cap);
  });
});
