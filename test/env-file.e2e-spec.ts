import { ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { User } from '../src/blog';
import { freePort } from './helpers/ports';
import { TestApp } from './helpers/test-app';

const ROOT = join(__dirname, '..');
const run = promisify(execFile);

const writeEnvFile = (dir: string, variables: Record<string, string>) =>
  writeFileSync(
    join(dir, '.env'),
    Object.entries(variables)
      .map(([key, value]) => `${key}=${value}\n`)
      .join(''),
  );

/** Waits until the service says it listens (on whatever port), or exits, or `timeoutMs`. */
async function listening(output: string[], child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    if (/Server listening at/.test(output.join(''))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether `{ __typename }` is answered on `port` of 127.0.0.1. */
async function answersOn(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
      signal: AbortSignal.timeout(5000),
    });
    const body = (await response.json()) as { data?: { __typename?: string } };
    return body.data?.__typename === 'Query';
  } catch {
    return false;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/**
 * The built entry points read `.env` of their working directory before anything else, as the
 * ConfigModule does (variables set in the real environment win), so that PORT, HOST,
 * TRUST_PROXY and the CLI's DATABASE_URL in it count.
 */
describe('.env in the working directory of the built service and CLI (e2e)', () => {
  let dir: string;
  /** Only what a shell would pass: no variable of the test's own environment leaks in. */
  const baseEnv = () => ({ PATH: process.env.PATH });

  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
  }, 240_000);
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'blog-env-file-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function startService(env: Record<string, string | undefined>) {
    const output: string[] = [];
    const child = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    return { child, output };
  }

  const serviceEnvFile = (port: number) => ({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${join(dir, 'blog.sqlite')}`,
    JWT_SECRET: 'env-file-e2e-secret-that-is-long-enough-for-hs256',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
  });

  it('should listen on the PORT and HOST that .env names', async () => {
    const port = await freePort();
    writeEnvFile(dir, serviceEnvFile(port));
    const { child, output } = await startService(baseEnv());
    try {
      await listening(output, child);
      const answered = await answersOn(port);
      if (!answered) console.log(output.join(''));
      expect(answered).toBe(true);
    } finally {
      await stop(child);
    }
  }, 90_000);

  it('should let a variable of the real environment win over .env', async () => {
    const [filePort, realPort] = [await freePort(), await freePort()];
    writeEnvFile(dir, serviceEnvFile(filePort));
    const { child, output } = await startService({ ...baseEnv(), PORT: String(realPort) });
    try {
      await listening(output, child);
      const answered = await answersOn(realPort);
      if (!answered) console.log(output.join(''));
      expect(answered).toBe(true);
    } finally {
      await stop(child);
    }
  }, 90_000);

  it('should let user:admin find the user in the database that .env names', async () => {
    const t = await TestApp.start();
    try {
      const { user } = await t.signUp({ email: 'env-admin@example.com' });
      writeEnvFile(dir, { DATABASE_URL: t.databaseUrl });
      const { stdout } = await run(
        process.execPath,
        [join(ROOT, 'dist/src/cli/make-admin.js'), 'env-admin@example.com'],
        { cwd: dir, env: baseEnv(), timeout: 60_000 },
      ).catch((error: { stdout: string; stderr: string }) => {
        throw new Error(`user:admin failed: ${error.stdout}${error.stderr}`);
      });
      expect(stdout).toContain('is now an admin');
      const stored = await t.dataSource.getRepository(User).findOneByOrFail({ id: user.id });
      expect(stored.role).toBe('ADMIN');
    } finally {
      await t.close();
    }
  }, 90_000);
});
