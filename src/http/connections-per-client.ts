import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

import type { FastifyInstance } from 'fastify';
import proxyAddr from 'proxy-addr';

import { ErrorCode } from '../blog';

interface Counted {
  client: string;
  /** Requests in flight on the socket (HTTP/1.1 runs one at a time). */
  busy: number;
  idleSince: number;
  /** A WebSocket now: never idle. */
  upgraded: boolean;
}

/**
 * Open connections per client address, at most `max` each. A client at its cap that opens
 * another has its longest-idle keep-alive connection closed to make room; when none of its
 * connections is idle (each has a request in flight, or is a WebSocket), the new one is refused.
 */
export class ConnectionsPerClient {
  private readonly byClient = new Map<string, Set<Duplex>>();
  private readonly counted = new WeakMap<Duplex, Counted>();

  constructor(private readonly max: number) {}

  /** Connections counted for `client` now. */
  open(client: string): number {
    return this.byClient.get(client)?.size ?? 0;
  }

  /**
   * Counts `socket` for `client` (moving it from the client it counted for before, if any);
   * false when `client` is at its cap with nothing idle to close.
   */
  admit(socket: Duplex, client: string): boolean {
    const known = this.counted.get(socket);
    if (known?.client === client) return true;
    const sockets = this.byClient.get(client) ?? new Set<Duplex>();
    if (sockets.size >= this.max && !this.closeIdle(sockets)) return false;
    if (known) this.forget(socket, known);
    else socket.once('close', () => this.release(socket));
    sockets.add(socket);
    this.byClient.set(client, sockets);
    this.counted.set(socket, {
      client,
      busy: known?.busy ?? 0,
      idleSince: known?.idleSince ?? Date.now(),
      upgraded: known?.upgraded ?? false,
    });
    return true;
  }

  requestStarted(socket: Duplex): void {
    const counted = this.counted.get(socket);
    if (counted) counted.busy += 1;
  }

  requestEnded(socket: Duplex): void {
    const counted = this.counted.get(socket);
    if (!counted) return;
    counted.busy = Math.max(0, counted.busy - 1);
    if (counted.busy === 0) counted.idleSince = Date.now();
  }

  upgraded(socket: Duplex): void {
    const counted = this.counted.get(socket);
    if (counted) counted.upgraded = true;
  }

  /** Closes the longest-idle keep-alive connection among `sockets`; false when none is idle. */
  private closeIdle(sockets: Set<Duplex>): boolean {
    let idlest: [Duplex, Counted] | undefined;
    for (const socket of sockets) {
      const counted = this.counted.get(socket);
      if (!counted || counted.busy > 0 || counted.upgraded) continue;
      if (!idlest || counted.idleSince < idlest[1].idleSince) idlest = [socket, counted];
    }
    if (!idlest) return false;
    this.forget(...idlest);
    idlest[0].destroy();
    return true;
  }

  private release(socket: Duplex): void {
    const counted = this.counted.get(socket);
    if (counted) this.forget(socket, counted);
  }

  private forget(socket: Duplex, counted: Counted): void {
    const sockets = this.byClient.get(counted.client);
    if (!sockets?.delete(socket)) return;
    if (sockets.size === 0) this.byClient.delete(counted.client);
  }
}

const REFUSAL_TEXT = 'Too many connections open from this address.\n';
const REFUSAL =
  'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain\r\n' +
  `Retry-After: 1\r\nContent-Length: ${Buffer.byteLength(REFUSAL_TEXT)}\r\n\r\n${REFUSAL_TEXT}`;

/** Answers 429 on a raw socket and closes it, reading nothing more from it. */
function refuse(socket: Duplex): void {
  socket.pause();
  socket.end(REFUSAL, () => socket.destroy());
  setTimeout(() => socket.destroy(), 1_000).unref();
}

/**
 * Caps the connections of each client address on `fastify`'s server at `max`, HTTP and WebSocket
 * alike, with the client address Fastify gives `request.ip`. Without trusted proxies the address
 * is the socket's, known when it connects: a connection past the cap is answered 429 and closed
 * before it carries a request. Behind `trustProxy` proxies it is the forwarded one, known from
 * each request: a connection counts for the client of its latest request, and a request past that
 * client's cap is answered 429 and its connection closed.
 */
export function capConnectionsPerClient(
  fastify: FastifyInstance,
  max: number,
  trustProxy: number,
): ConnectionsPerClient {
  const connections = new ConnectionsPerClient(max);
  const server = fastify.server as Server;
  if (trustProxy === 0) {
    server.on('connection', (socket: Duplex & { remoteAddress?: string }) => {
      if (!connections.admit(socket, socket.remoteAddress ?? '')) refuse(socket);
    });
  }
  // Registered before the WebSocket server's listener, which leaves a refused socket alone.
  server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    if (trustProxy > 0) {
      const client = proxyAddr(request, (_address, hop) => hop < trustProxy);
      if (!connections.admit(socket, client)) return refuse(socket);
    }
    connections.upgraded(socket);
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket;
    if (!connections.admit(socket, request.ip)) {
      void reply
        .code(429)
        .header('connection', 'close')
        .header('retry-after', '1')
        .send({
          errors: [
            {
              message: 'Too many connections open from this address.',
              extensions: { code: ErrorCode.TooManyRequests },
            },
          ],
        });
      return;
    }
    connections.requestStarted(socket);
    reply.raw.once('close', () => connections.requestEnded(socket));
    done();
  });
  return connections;
}
