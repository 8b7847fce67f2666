import type { Server } from 'node:http';

import { INestApplication, Logger } from '@nestjs/common';

import { ShutdownState } from './shutdown-state';

/** After the timeout has cut the connections, how long the rest of the shutdown may take. */
const FORCED_EXIT_GRACE_MS = 2000;
/** How often a shutdown closes keep-alive connections whose last response has gone out. */
const IDLE_SWEEP_MS = 100;

/**
 * Stops the service on SIGTERM or SIGINT, in place of Nest's `enableShutdownHooks` (which ends
 * by re-raising the signal, so the process dies by it). Readiness turns 503 at once; then
 * `app.close()` runs: WebSocket connections close with 1001, the HTTP server stops accepting and
 * waits for the requests in flight, and the database and Redis connections close. The process
 * exits 0. Requests still running after `timeoutMs` have their connections cut; the process then
 * exits 1, at most {@link FORCED_EXIT_GRACE_MS} later. A repeated signal changes nothing (npm
 * passes Ctrl-C on to the service, which gets it twice).
 *
 * Node's `server.close()` closes the connections that are idle at that moment only; a keep-alive
 * connection whose request finishes later would hold the exit until its keep-alive timeout, so
 * idle connections are closed every {@link IDLE_SWEEP_MS} until the app has closed.
 */
export function enableGracefulShutdown(app: INestApplication, timeoutMs: number): void {
  const logger = new Logger('Shutdown');
  let started = false;
  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    if (started) return;
    started = true;
    logger.log(`${signal}: finishing the requests in flight (at most ${timeoutMs} ms)`);
    app.get(ShutdownState, { strict: false }).begin();
    const server = app.getHttpServer() as Server;
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    let forced = false;
    const deadline = setTimeout(() => {
      forced = true;
      logger.warn(`Requests still running after ${timeoutMs} ms: closing their connections`);
      server.closeAllConnections();
      setTimeout(() => process.exit(1), FORCED_EXIT_GRACE_MS);
    }, timeoutMs);
    try {
      await app.close();
    } catch (error) {
      logger.error('The shutdown failed', error instanceof Error ? error.stack : String(error));
      process.exit(1);
    }
    clearInterval(sweep);
    clearTimeout(deadline);
    process.exit(forced ? 1 : 0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, shutdown);
}
