import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HeapSpaceInfo } from 'node:v8';

import { BuiltService, ROOT } from './helpers/built-service';

const PRELOAD = join(__dirname, 'helpers', 'heap-spaces.js');
const MB = 1024 * 1024;

async function until<T>(read: () => T | undefined, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Memory at rest: starting keeps nearly all it allocates, which grows V8's young generation to
 * its largest size (about 60 MB); the service gives it back once it listens, rather than holding
 * it until V8's memory reducer runs, up to 100 s later.
 */
describe('Memory of the built service at rest (e2e)', () => {
  let dir: string;
  let service: BuiltService | undefined;

  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
  }, 240_000);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blog-resting-'));
  });

  afterEach(async () => {
    await service?.stop();
    service = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('should hold a small young generation once it is ready', async () => {
    const file = join(dir, 'heap-spaces.json');
    service = await BuiltService.start({
      NODE_OPTIONS: `--require=${PRELOAD}`,
      HEAP_SPACES_FILE: file,
    });
    const started = service;
    await until(() => (/GraphQL API ready/.test(started.log) ? true : undefined), 'ready');
    started.child.kill('SIGUSR2');
    const spaces = await until(
      () =>
        existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as HeapSpaceInfo[]) : undefined,
      'the heap spaces',
    );
    const young = spaces.find((space) => space.space_name === 'new_space');
    expect(young).toBeDefined();
    // About 60 MB when starting's garbage is kept; under 1 MB once it is given back.
    expect(young!.physical_space_size).toBeLessThan(16 * MB);
  }, 90_000);
});
