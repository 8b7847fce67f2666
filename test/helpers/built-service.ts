import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresDatabase, testDatabase } from './databases';

/** The project's root, where `dist/` is built. */
export const ROOT = join(__dirname, '..', '..');

/** Resolves with `promise`, or fails naming `what` after `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The built service (`dist/src/main.js`) in a process of its own, on a fresh database. */
export class BuiltService {
  readonly output: string[] = [];
  readonly exited: Promise<Exit>;
  port = 0;

  private constructor(
    readonly child: ChildProcess,
    private readonly cleanup: () => Promise<void>,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  /** Starts it in production mode on 127.0.0.1 and a free port; `env` adds or overrides. */
  static async start(env: Record<string, string> = {}): Promise<BuiltService> {
    const dataDir = mkdtempSync(join(tmpdir(), 'blog-built-'));
    const postgres = testDatabase() === 'postgres' ? await createPostgresDatabase() : null;
    const child = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        DATABASE_URL: postgres?.url ?? `sqlite:${join(dataDir, 'blog.sqlite')}`,
        JWT_SECRET: 'built-e2e-secret-that-is-long-enough-for-hs256',
        ...env,
      },
    });
    const service = new BuiltService(child, async () => {
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const listening = (async () => {
      for (;;) {
        const port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(
          service.output.join(''),
        )?.[1];
        if (port) return Number(port);
        if (child.exitCode !== null) throw new Error(`The service exited: ${service.log}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    service.port = await within(listening, 60_000, 'the service to listen');
    return service;
  }

  get log(): string {
    return this.output.join('');
  }

  /** Kills the process if a test left it running, then removes its database. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
      await within(this.exited, 5000, 'the killed service to exit');
    }
    await this.cleanup();
  }
}
