import type { Server } from 'node:http';

import { UsersService } from '../src/blog';
import { within } from './helpers/built-service';
import { insertUsersWithPosts } from './helpers/fixtures';
import { sample } from './helpers/metrics';
import { accepted, Connection, open, openConnections, post } from './helpers/raw-http';
import { TestApp } from './helpers/test-app';

/** A query that takes the server a while: 40 users with 25 posts each, and their authors. */
const SLOW_QUERY = `{ users(first: 40) { id name posts(first: 25) { id title author { name handle } } } }`;

const OK = /^HTTP\/1\.1 200 /;

describe('HTTP_MAX_REQUESTS_IN_FLIGHT (e2e)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await TestApp.start({
      // Two places, and every client behind the proxy its own address.
      env: { HTTP_MAX_REQUESTS_IN_FLIGHT: '2', TRUST_PROXY: '1', METRICS_ENABLED: 'true' },
    });
    await insertUsersWithPosts(t.dataSource, 40, 25);
    port = Number(new URL((await t.listen()).http).port);
  });
  afterAll(() => t.close());

  /** `count` new connections, once the server has accepted them all. */
  const openMany = async (count: number): Promise<Connection[]> => {
    const server = t.app.getHttpServer() as Server;
    const before = await openConnections(server);
    const connections = await Promise.all(Array.from({ length: count }, () => open(port)));
    await accepted(server, before + count);
    return connections;
  };

  it('should answer every request past the cap as places come free', async () => {
    const connections = await openMany(30);
    for (const { socket } of connections) socket.write(post({ query: SLOW_QUERY }));
    await within(
      Promise.all(connections.map(({ closed }) => closed)),
      30_000,
      'the requests past the cap',
    );
    for (const { answer } of connections) {
      expect(answer()).toMatch(OK);
      expect(answer()).toContain('{"data":{"users":[{"id"');
    }
  });

  it('should give back the place of a request whose client hung up while it ran', async () => {
    // Two requests take the two places and stay inside the service until the test lets them go:
    // their answers are never written, so only their connections' close can free the places.
    const users = t.app.get(UsersService);
    const original = users.list.bind(users);
    let reached = 0;
    let arrived!: () => void;
    const bothArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const spy = jest.spyOn(users, 'list').mockImplementation(async (...args) => {
      if (++reached === 2) arrived();
      await released;
      return original(...args);
    });
    try {
      const held = await openMany(2);
      for (const { socket } of held) socket.write(post({ query: '{ users(first: 1) { id } }' }));
      await within(bothArrived, 10_000, 'the two held requests');
      const queued = await openMany(3);
      for (const { socket } of queued) socket.write(post({ query: '{ __typename }' }));
      // The metrics, a probe, are served past the queue: two in flight, three waiting.
      const gauges = async () => {
        const text = (await t.http.get('/metrics').expect(200)).text;
        return [sample(text, 'http_requests_in_flight'), sample(text, 'http_requests_waiting')];
      };
      for (let tries = 0; tries < 500 && (await gauges())[1] !== 3; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await gauges()).toEqual([2, 3]);

      for (const { socket } of held) socket.destroy();
      await Promise.all(held.map(({ closed }) => closed));
      await within(Promise.all(queued.map((c) => c.closed)), 10_000, 'the queued requests');
      for (const { answer } of queued)
        expect(answer()).toContain('{"data":{"__typename":"Query"}}');

      const after = await openMany(4);
      for (const { socket } of after) socket.write(post({ query: '{ __typename }' }));
      await within(
        Promise.all(after.map((c) => c.closed)),
        10_000,
        'the requests after the hang-ups',
      );
      for (const { answer } of after) expect(answer()).toContain('{"data":{"__typename":"Query"}}');
      expect(reached).toBe(2);
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it("should serve a client's request between another client's, not after all of them", async () => {
    const busy = await openMany(10);
    const [quick] = await openMany(1);
    const finished: string[] = [];
    busy.forEach(({ closed }, i) => void closed.then(() => finished.push(`busy ${i}`)));
    void quick.closed.then(() => finished.push('quick'));

    const from = (client: string) => `X-Forwarded-For: ${client}\r\n`;
    for (const { socket } of busy) {
      socket.write(post({ query: SLOW_QUERY }, undefined, from('203.0.113.7')));
    }
    // After the busy client's ten, while they wait for one of the two places.
    await new Promise((resolve) => setImmediate(resolve));
    quick.socket.write(post({ query: '{ __typename }' }, undefined, from('198.51.100.1')));
    await within(Promise.all([...busy, quick].map(({ closed }) => closed)), 30_000, 'both clients');

    expect(quick.answer()).toContain('{"data":{"__typename":"Query"}}');
    for (const { answer } of busy) expect(answer()).toMatch(OK);
    // First come, first served would have answered it after the ten; taking turns, after those
    // two places held when it came, and perhaps one more started in the same turn.
    expect(finished.indexOf('quick')).toBeLessThanOrEqual(4);
  });
});
