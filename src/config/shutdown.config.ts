import { readInteger } from './env';

/** How the service stops on SIGTERM or SIGINT (read by main.ts, which installs the handler). */
export interface ShutdownConfig {
  /** How long the requests in flight may take to finish; then their connections are cut. */
  timeoutMs: number;
}

export function loadShutdownConfig(env: NodeJS.ProcessEnv = process.env): ShutdownConfig {
  return {
    timeoutMs: readInteger(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, { min: 1000, max: 600_000 }),
  };
}
