import { setFlagsFromString } from 'node:v8';
import { InvalidEnvironmentError, readInteger } from './env';

/**
 * How far V8's old generation may grow past what survived its last full collection before the
 * next one, in percent: with 50, 60 MB live may grow to 90 MB. V8's own factor, computed from
 * its collection and allocation speeds, goes up to 4 (300 %) on a machine with much memory, and
 * that is what filled RSS under 100 concurrent requests: each request's objects outlive a few
 * scavenges while it waits for the database, are promoted, and stay in the old generation as
 * garbage until it reaches about 4 × the live heap (heap snapshots under load: ~56 MB live of
 * 230 MB used). With 50, the benchmark's peak RSS went from 353 to 208 MB on PostgreSQL and from
 * 337 to 209 MB on SQLite, for about 3 % more time in full collections.
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 50;

/** V8 heap settings, applied by main.ts before it loads the application. */
export interface MemoryConfig {
  /** `HEAP_GROWING_PERCENT`, see {@link DEFAULT_HEAP_GROWING_PERCENT}; 0 keeps V8's factor. */
  heapGrowingPercent: number;
}

export function loadMemoryConfig(env: NodeJS.ProcessEnv = process.env): MemoryConfig {
  return {
    heapGrowingPercent: readInteger(env, 'HEAP_GROWING_PERCENT', DEFAULT_HEAP_GROWING_PERCENT, {
      min: 0,
      max: 1000,
    }),
  };
}

/**
 * The V8 flags of `config`: none for V8's defaults, nor when node was started with the flag
 * (`node --heap-growing-percent=…`), since the command line wins.
 */
export function v8FlagsFor(config: MemoryConfig, execArgv: readonly string[] = []): string[] {
  if (config.heapGrowingPercent === 0) return [];
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return [];
  return [`--heap-growing-percent=${config.heapGrowingPercent}`];
}

/**
 * Sets the flags of {@link v8FlagsFor} in this process, so that `node dist/src/main.js` gets
 * them without options. V8 reads this one whenever it sets the old generation's next limit
 * (after each full collection), so setting it once the heap exists works; main.ts does it
 * before it requires the application, so that no limit is set with V8's factor. A malformed
 * value is left to the environment's validation at start-up, which names it.
 */
export function applyMemoryConfig(env: NodeJS.ProcessEnv = process.env): void {
  let config: MemoryConfig;
  try {
    config = loadMemoryConfig(env);
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) return;
    throw error;
  }
  for (const flag of v8FlagsFor(config, process.execArgv)) setFlagsFromString(flag);
}
