import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  BuiltService,
  ROOT,
  startEnvironment,
  startOptions,
  within,
} from './helpers/built-service';

const BOOTS = 10;
const FEED = '{ posts(first: 5) { id title author { name } } }';

/**
 * Frees an 8 MB block, then allocates and fills a 4 MB one, and prints by how many KB malloc's
 * main heap (`[heap]` in /proc/self/maps) grew for it. glibc serves such blocks with mmap and
 * gives them back to the system when freed; but once one is freed, it raises its threshold to
 * that block's size, and later blocks of up to that size come from its heaps, which keep them.
 */
const HEAP_GROWTH = `
const { readFileSync } = require('node:fs');
const heapKb = () => {
  const heap = /^([0-9a-f]+)-([0-9a-f]+) .*\\[heap\\]$/m.exec(readFileSync('/proc/self/maps', 'utf8'));
  return heap ? (parseInt(heap[2], 16) - parseInt(heap[1], 16)) / 1024 : 0;
};
(async () => {
  let block = Buffer.allocUnsafeSlow(8 << 20);
  block.fill(1);
  block = null;
  globalThis.gc();
  while (process.memoryUsage().arrayBuffers >= 8 << 20) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    globalThis.gc();
  }
  const before = heapKb();
  Buffer.allocUnsafeSlow(4 << 20).fill(2);
  console.log(heapKb() - before);
})();
`;

/** The KB by which malloc's main heap grows for a 4 MB block after an 8 MB one was freed. */
const heapGrowthKb = (env: Record<string, string>) =>
  Number(
    execFileSync(process.execPath, ['--expose-gc', '-e', HEAP_GROWTH], {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
    }),
  );

/** Whether Node runs on glibc, whose malloc reads MALLOC_MMAP_THRESHOLD_. */
const onGlibc = Boolean(
  (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header
    ?.glibcVersionRuntime,
);

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

  it('should compile on `npm install`, so that `npm start` has nothing left to build', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.prepare).toMatch(
      /scripts\/build-if-needed\.mjs.*&& node scripts\/build-ide\.mjs$/,
    );
    expect(scripts.prestart).toMatch(/scripts\/build-if-needed\.mjs.*build-ide\.mjs --if-missing$/);
    // dist/ is now up to date (beforeAll), so the check before `npm start` compiles nothing.
    const again = execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT });
    expect(again.toString()).toBe('');
  });

  it("should run `npm start` with start:prod's V8 memory settings", () => {
    expect(startOptions('start')).toEqual(startOptions('start:prod'));
    expect(startOptions('start:prod').length).toBeGreaterThan(0);
    expect(startEnvironment('start')).toEqual(startEnvironment('start:prod'));
  });

  (onGlibc ? it : it.skip)(
    "should give large freed blocks back to the system with start:prod's environment",
    () => {
      // Without it, glibc keeps the block in its heap: what this test would miss.
      expect(heapGrowthKb({})).toBeGreaterThanOrEqual(3 * 1024);
      expect(startEnvironment()).toHaveProperty('MALLOC_MMAP_THRESHOLD_');
      expect(heapGrowthKb(startEnvironment())).toBe(0);
    },
  );

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
