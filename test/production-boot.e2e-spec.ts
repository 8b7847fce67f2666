import { execFileSync } from 'node:child_process';

import { BuiltService, ROOT, startOptions, within } from './helpers/built-service';

const BOOTS = 10;
const FEED = '{ posts(first: 5) { id title author { name } } }';

/**
 * The built service (`dist/src/main.js`), booted again and again in production mode on a fresh
 * SQLite file, as `npm run start:prod` does. On Node 24 with better-sqlite3 12 most such boots
 * aborted (SIGABRT while the garbage collector finalized prepared statements): each boot here
 * must answer the feed and exit 0 on SIGTERM, and a crash fails the suite with the signal and
 * the log's tail (BuiltService).
 */
describe('Booting the built service in production mode on SQLite (e2e)', () => {
  let service: BuiltService | undefined;

  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
  }, 240_000);

  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  it("should run `npm start` with start:prod's V8 memory settings", () => {
    expect(startOptions('start')).toEqual(startOptions('start:prod'));
    expect(startOptions('start:prod').length).toBeGreaterThan(0);
  });

  it(`should boot ${BOOTS} times, answer the feed and exit 0 each time`, async () => {
    for (let boot = 1; boot <= BOOTS; boot += 1) {
      // The demo seed makes each boot write (migrations, argon2 hashes) before it answers.
      service = await BuiltService.start({ SEED_DEMO: 'true' });
      const response = await fetch(`http://127.0.0.1:${service.port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: FEED }),
      });
      const body = (await response.json()) as {
        data?: { posts: { id: string; title: string; author: { name: string } }[] };
        errors?: unknown[];
      };
      expect({ boot, status: response.status, errors: body.errors }).toEqual({
        boot,
        status: 200,
        errors: undefined,
      });
      expect(body.data?.posts).toHaveLength(5);
      expect(body.data?.posts[0].author.name).toEqual(expect.any(String));

      service.child.kill('SIGTERM');
      expect({ boot, ...(await within(service.exited, 15_000, 'the service to exit')) }).toEqual({
        boot,
        code: 0,
        signal: null,
      });
      await service.stop();
      service = undefined;
    }
  }, 300_000);
});
