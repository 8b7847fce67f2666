import { spawn } from 'node:child_process';

import { ROOT, within } from './helpers/built-service';

/** How often the script runs; each run is 4 rounds of 20,000 statements and a full collection. */
const RUNS = 3;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

function hammer(): Promise<Run> {
  const child = spawn(process.execPath, ['--expose-gc', 'scripts/sqlite-gc-hammer.mjs'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, output: output.join('') }));
  });
}

/**
 * better-sqlite3 12 aborted the process on Node 24 and 26 when the garbage collector finalized
 * prepared statements (SIGABRT in Statement::~Statement): at the service's boot, in the suites.
 * scripts/sqlite-gc-hammer.mjs makes that happen as often as it can, in a process of its own
 * so that a crash is seen as the signal that ended it.
 */
describe('better-sqlite3 under garbage collection, on this Node', () => {
  it(`should prepare 20,000 statements and collect them, ${RUNS} times over, without a crash`, async () => {
    for (let run = 1; run <= RUNS; run += 1) {
      const { code, signal, output } = await within(hammer(), 60_000, `run ${run} of the script`);
      if (signal !== null || code !== 0) {
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        throw new Error(
          `Run ${run} of scripts/sqlite-gc-hammer.mjs ${how}:\n${output.slice(-3000)}`,
        );
      }
      expect(output).toMatch(/^better-sqlite3 \S+ on Node v\d+.*no crash$/m);
    }
  }, 120_000);
});
