import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port the system hands out to outgoing connections and to `listen(0)`. */
function ephemeralFloor(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/);
    return Number(low) || 32768;
  } catch {
    return 32768;
  }
}

const LOWEST = 10_000;

function listens(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port of 127.0.0.1 that was free a moment ago, for a server a test starts itself. It lies
 * below the ephemeral range, so that no connection of a test running beside this one takes it
 * as its source port before the server binds it, or while the test restarts the server.
 */
export async function freePort(): Promise<number> {
  const span = ephemeralFloor() - LOWEST;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * span);
    if (await listens(port)) return port;
  }
  throw new Error('No free port found below the ephemeral range');
}
