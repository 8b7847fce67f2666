import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createPostgresDatabase, testDatabase } from './databases';
import {
  startEnvironment as startCommandEnvironment,
  startOptions as startCommandOptions,
} from '../../scripts/start-command.cjs';

/** The project's root, where `dist/` is built. */
export const ROOT = join(__dirname, '..', '..');

/**
 * Node's options in one of package.json's scripts that run `node … dist/src/main.js` (V8's
 * memory settings, in `start` and `start:prod`).
 */
export function startOptions(script = 'start:prod'): string[] {
  return startCommandOptions(ROOT, script);
}

/**
 * The environment that such a script sets before `node` (glibc's malloc settings), without
 * NODE_ENV, which `start:prod` alone sets.
 */
export function startEnvironment(script = 'start:prod'): Record<string, string> {
  return startCommandEnvironment(ROOT, script);
}

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

/** How many of the service's last output lines an error quotes. */
const TAIL_LINES = 40;

/** The built service (`dist/src/main.js`) in a process of its own, on a fresh database. */
export class BuiltService {
  readonly output: string[] = [];
  readonly exited: Promise<Exit>;
  port = 0;
  /** Set once the process has exited, whoever ended it. */
  exit: Exit | null = null;
  /** Resolves once the process has exited and its output is all read. */
  private readonly closed: Promise<void>;
  private stopping = false;

  private constructor(
    readonly child: ChildProcess,
    private readonly cleanup: () => Promise<void>,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve((this.exit = { code, signal }))),
    );
    this.closed = new Promise((resolve) => child.once('close', () => resolve()));
  }

  /**
   * Starts it in production mode, as `npm run start:prod` does (its Node options and
   * environment), on 127.0.0.1 and a free port; `env` adds or overrides.
   */
  static async start(env: Record<string, string> = {}): Promise<BuiltService> {
    const dataDir = mkdtempSync(join(tmpdir(), 'blog-built-'));
    const postgres = testDatabase() === 'postgres' ? await createPostgresDatabase() : null;
    const child = spawn(process.execPath, [...startOptions(), 'dist/src/main.js'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...startEnvironment(),
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
    // Fails at once when the process ends first, by a signal (a native crash) as by an exit.
    const died = service.exited.then(() => service.died('before it listened'));
    const listening = (async () => {
      while (!service.exit) {
        const port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(service.log)?.[1];
        if (port) return Number(port);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return died;
    })();
    try {
      service.port = await within(Promise.race([listening, died]), 60_000, 'the service to listen');
    } catch (error) {
      await service.stop().catch(() => {});
      throw error;
    }
    return service;
  }

  get log(): string {
    return this.output.join('');
  }

  /** The last lines of the service's output. */
  get tail(): string {
    return this.log.trimEnd().split('\n').slice(-TAIL_LINES).join('\n');
  }

  /**
   * Kills the process if a test left it running, then removes its database. Fails when the
   * process had died by a signal that this helper did not send (a native crash, say), naming it
   * with the log's tail, so that a crash fails the suite even when no test looked at the exit.
   */
  async stop(): Promise<void> {
    try {
      if (!this.exit) {
        this.stopping = true;
        this.child.kill('SIGKILL');
        await within(this.exited, 5000, 'the killed service to exit');
      } else if (this.exit.signal && !this.stopping) {
        await this.died('during the test');
      }
    } finally {
      await this.cleanup();
    }
  }

  /** Throws an error that names how the process ended, with the tail of its output. */
  private async died(when: string): Promise<never> {
    await within(this.closed, 5000, 'the service output to end').catch(() => {});
    const { code, signal } = this.exit!;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    throw new Error(`The service ${how} ${when}. The last lines of its output:\n${this.tail}`);
  }
}
