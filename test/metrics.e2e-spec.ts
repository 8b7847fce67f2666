import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { testDatabase } from './helpers/databases';
import { sample } from './helpers/metrics';
import { TestApp } from './helpers/test-app';
import { settle, wsClient } from './helpers/ws-client';
import { PublicationFanOut } from '../src/blog';
import { BlogEvent } from '../src/blog/events/blog-events';

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

describe('GET /metrics (e2e)', () => {
  it('should answer 404 unless METRICS_ENABLED=true', async () => {
    const t = await TestApp.start();
    try {
      await t.http.get('/metrics').expect(404);
    } finally {
      await t.close();
    }
  });

  it('should want the bearer token when METRICS_TOKEN is set', async () => {
    const t = await TestApp.start({
      env: { METRICS_ENABLED: 'true', METRICS_TOKEN: 'scrape-token-123' },
    });
    try {
      await t.http.get('/metrics').expect(401);
      await t.http.get('/metrics').set('authorization', 'Bearer wrong').expect(401);
      await t.http.get('/metrics').set('authorization', 'scrape-token-123').expect(401);
      await t.http.get('/metrics').set('authorization', 'Bearer scrape-token-123').expect(200);
    } finally {
      await t.close();
    }
  });

  it('should always give the operations of trusted documents names of their own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metrics-manifest-'));
    const pinned = 'query PinnedFeed { posts(first: 1) { id } }';
    const manifest = join(dir, 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ [hashOf(pinned)]: pinned }));
    const t = await TestApp.start({
      env: { METRICS_ENABLED: 'true', TRUSTED_DOCUMENTS: manifest },
    });
    try {
      const user = await t.signUp();
      // Signed-in names fill every place; an anonymous newcomer cannot take one.
      for (let i = 0; i < 200; i += 1) await t.data(`query Mine${i} { me { id } }`, {}, user.token);
      await t.data('query Stranger { __typename }');
      await t.http
        .post('/graphql')
        .send({ documentId: `sha256:${hashOf(pinned)}` })
        .expect(200);
      const text = (await t.http.get('/metrics').expect(200)).text;
      const query = { operation_type: 'query', outcome: 'success' };
      expect(
        sample(text, 'graphql_operations_total', { operation_name: 'PinnedFeed', ...query }),
      ).toBe(1);
      expect(sample(text, 'graphql_operations_total', { operation_name: 'other', ...query })).toBe(
        1,
      );
      expect(
        sample(text, 'graphql_operations_total', { operation_name: 'Mine199', ...query }),
      ).toBe(1);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('when enabled', () => {
    let t: TestApp;
    const scrape = async () => {
      const response = await t.http.get('/metrics').expect(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return response.text;
    };

    beforeAll(async () => {
      t = await TestApp.start({ env: { METRICS_ENABLED: 'true' } });
    });
    afterAll(() => t.close());

    it('should count and time operations by name, type and outcome, and errors by code', async () => {
      await t.data('query PostList { posts { id } }');
      await t.data('query PostList { posts { id } }');
      await t.gql('mutation Publish { publishPost(id: "x") { id } }');
      const text = await scrape();
      const list = { operation_name: 'PostList', operation_type: 'query', outcome: 'success' };
      expect(sample(text, 'graphql_operations_total', list)).toBe(2);
      expect(sample(text, 'graphql_operation_duration_seconds_count', list)).toBe(2);
      expect(sample(text, 'graphql_operation_duration_seconds_sum', list)).toBeGreaterThan(0);
      expect(
        sample(text, 'graphql_operations_total', {
          operation_name: 'Publish',
          operation_type: 'mutation',
          outcome: 'error',
        }),
      ).toBe(1);
      expect(sample(text, 'graphql_errors_total', { code: 'UNAUTHENTICATED' })).toBe(1);
      expect(text).not.toContain('posts { id }');
    });

    it("should keep at most 200 operation names by recent use, so that made-up ones cannot push out a client's", async () => {
      const CLIENT_FEED = 'query ClientFeed { posts(first: 1) { id } }';
      for (let i = 0; i < 3; i += 1) await t.data(CLIENT_FEED);
      // An anonymous client makes up 205 names, one use each.
      for (let i = 0; i < 205; i += 1) await t.data(`query MadeUp${i} { __typename }`);
      await t.data(CLIENT_FEED);
      await t.data('query ClientPostPage { posts(first: 1) { id } }');
      await t.data('{ posts(first: 1) { id } }');
      await t.gql('query NeverValid { noSuchField }');
      const text = await scrape();
      const names = new Set(
        [...text.matchAll(/^graphql_operations_total\{operation_name="([^"]+)"/gm)].map(
          (m) => m[1],
        ),
      );
      expect(names.size).toBeLessThanOrEqual(202);
      const client = { operation_type: 'query', outcome: 'success' };
      expect(
        sample(text, 'graphql_operations_total', { operation_name: 'ClientFeed', ...client }),
      ).toBe(4);
      // A name first sent after the flood takes the place of a made-up one.
      expect(
        sample(text, 'graphql_operations_total', { operation_name: 'ClientPostPage', ...client }),
      ).toBe(1);
      expect(names).toContain('anonymous');
      expect(names).not.toContain('NeverValid');
      expect(
        sample(text, 'graphql_operations_total', {
          operation_name: 'other',
          operation_type: 'query',
          outcome: 'error',
        }),
      ).toBe(1);
      expect(
        sample(text, 'graphql_operations_total', {
          operation_name: 'anonymous',
          operation_type: 'query',
          outcome: 'success',
        }),
      ).toBe(1);
    });

    it('should report open subscriptions and WebSocket connections', async () => {
      const { ws } = await t.listen();
      const { client, closed } = wsClient(ws);
      const dispose = client.subscribe(
        { query: 'subscription { postCreated { id } }' },
        { next: () => undefined, error: () => undefined, complete: () => undefined },
      );
      await t.untilSubscribed(BlogEvent.PostPublished, 1);
      let text = await scrape();
      expect(sample(text, 'graphql_subscriptions_open')).toBe(1);
      expect(sample(text, 'graphql_websocket_connections_open')).toBe(1);
      dispose();
      await client.dispose();
      await closed;
      await settle();
      text = await scrape();
      expect(sample(text, 'graphql_subscriptions_open')).toBe(0);
      expect(sample(text, 'graphql_websocket_connections_open')).toBe(0);
    });

    it('should report the fan-outs this instance parked', async () => {
      expect(sample(await scrape(), 'notification_fan_outs_parked')).toBe(0);
      const fanOut = t.app.get(PublicationFanOut, { strict: false });
      (fanOut as unknown as { parkedHere: number }).parkedHere = 2;
      expect(sample(await scrape(), 'notification_fan_outs_parked')).toBe(2);
      (fanOut as unknown as { parkedHere: number }).parkedHere = 0;
    });

    it("should include prom-client's default process metrics", async () => {
      const text = await scrape();
      for (const name of [
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_seconds',
        'nodejs_heap_size_used_bytes',
      ]) {
        expect(sample(text, name)).toBeGreaterThanOrEqual(0);
      }
      expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
    });

    it('should report the admission queue, and requests in flight where they are capped', async () => {
      const text = await scrape();
      expect(sample(text, 'http_requests_waiting')).toBe(0);
      // The scrape is a probe: it never waits in the queue, nor counts in flight.
      if (testDatabase() === 'postgres') expect(sample(text, 'http_requests_in_flight')).toBe(0);
      else expect(sample(text, 'http_requests_in_flight')).toBeUndefined();
    });

    it('should report the PostgreSQL pool, and only on PostgreSQL', async () => {
      const text = await scrape();
      if (testDatabase() === 'postgres') {
        expect(sample(text, 'db_pool_connections')).toBeGreaterThanOrEqual(1);
        expect(sample(text, 'db_pool_connections_idle')).toBeGreaterThanOrEqual(0);
        expect(sample(text, 'db_pool_requests_waiting')).toBe(0);
      } else {
        expect(sample(text, 'db_pool_connections')).toBeUndefined();
      }
    });

    it('should keep the metrics of a second app in the same process apart', async () => {
      const second = await TestApp.start({ env: { METRICS_ENABLED: 'true' } });
      try {
        await second.data('query OnlyOnSecond { posts { id } }');
        const own = (await second.http.get('/metrics').expect(200)).text;
        expect(own).toContain('operation_name="OnlyOnSecond"');
        expect(own).not.toContain('operation_name="PostList"');
        expect(await scrape()).not.toContain('OnlyOnSecond');
      } finally {
        await second.close();
      }
    });
  });
});
