import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ROOT, within } from './built-service';

/** Builds `dist/` when it is missing or older than the sources, as `npm start` does. */
export function buildIfNeeded(): void {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
}

/**
 * The built service (`dist/src/main.js`) in a working directory of its own, with only the
 * variables given (and PATH): nothing of the test's own environment leaks in.
 */
export class SpawnedService {
  readonly output: string[] = [];
  readonly exited: Promise<number | null>;
  readonly dir: string;
  private readonly child: ChildProcess;

  constructor(env: Record<string, string>, dir = mkdtempSync(join(tmpdir(), 'blog-spawned-'))) {
    this.dir = dir;
    this.child = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, DATA_DIR: join(dir, 'data'), ...env },
    });
    this.child.stdout!.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    const closed = new Promise<number | null>((resolve) =>
      this.child.once('close', (code) => resolve(code)),
    );
    this.exited = closed;
  }

  get log(): string {
    return this.output.join('');
  }

  /** The lines the process wrote, stdout and stderr together, without empty ones. */
  get lines(): string[] {
    return this.log.split('\n').filter((line) => line.trim() !== '');
  }

  /** Resolves once `pattern` appears in the output; fails when the process exits first. */
  async waitFor(pattern: RegExp, what: string, ms = 60_000): Promise<RegExpExecArray> {
    const found = (async () => {
      for (;;) {
        const match = pattern.exec(this.log);
        if (match) return match;
        if (this.child.exitCode !== null) {
          throw new Error(`The service exited before ${what}:\n${this.log}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    return within(found, ms, what);
  }

  /** The port it listens on, from Fastify's "Server listening at" line. */
  async port(): Promise<number> {
    const match = await this.waitFor(/Server listening at http:\/\/[^\s]*:(\d+)/, 'it listened');
    return Number(match[1]);
  }

  /** Kills it with SIGKILL, as a crash would, keeping its working directory. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
      await within(this.exited, 5000, 'the killed service to exit');
    }
  }

  /** Stops it (if it still runs) and removes its working directory. */
  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
