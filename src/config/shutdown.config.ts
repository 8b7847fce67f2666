import { readInteger } from './env';
import { SETTINGS } from './settings.schema';

/** How the service stops on SIGTERM or SIGINT (read by main.ts, which installs the handler). */
export interface ShutdownConfig {
  /** How long the requests in flight may take to finish; then their connections are cut. */
  timeoutMs: number;
}

export function loadShutdownConfig(env: NodeJS.ProcessEnv = process.env): ShutdownConfig {
  return {
    timeoutMs: readInteger(env, SETTINGS.SHUTDOWN_TIMEOUT_MS),
  };
}
