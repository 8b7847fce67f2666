import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

import type { FastifyInstance } from 'fastify';

import { ErrorCode } from '../blog';
import { clientAddressOf, ProxyTrust } from './client-address';

interface Counted {
  client: string;
  /** Requests in flight on the socket (HTTP/1.1 runs one at a time). */
  busy: number;
  /** When its last request ended; null while it has carried none. */
  idleSince: number | null;
  /** A WebSocket now: never idle. */
  upgraded: boolean;
}

/**
 * How long a keep-alive connection must have been idle before it may be closed to make room:
 * a client that reuses one right after an answer is not cut off as it sends its next request.
 */
export const IDLE_GRACE_MS = 1_000;

/** What a {@link ConnectionsPerClient} is given. */
export interface ConnectionsPerClientOptions {
  /** The connections one client may hold; a function gives each client its own cap. */
  max: number | ((client: string) => number);
  /** See {@link IDLE_GRACE_MS}, the default. */
  idleGraceMs?: number;
  now?: () => number;
}

/**
 * Open connections per client, at most `max` each. A client at its cap that opens another has
 * its longest-idle keep-alive connection closed to make room, if one has been idle for
 * `idleGraceMs`; otherwise (each has a request in flight, is a WebSocket, has carried no request
 * yet or was idle only a moment) the new one is refused.
 */
export class ConnectionsPerClient {
  private readonly byClient = new Map<string, Set<Duplex>>();
  private readonly counted = new WeakMap<Duplex, Counted>();
  private readonly watched = new WeakSet<Duplex>();
  private readonly max: (client: string) => number;
  private readonly idleGraceMs: number;
  private readonly now: () => number;

  constructor(options: number | ConnectionsPerClientOptions) {
    const {
      max,
      idleGraceMs = IDLE_GRACE_MS,
      now = Date.now,
    } = typeof options === 'number' ? { max: options } : options;
    this.max = typeof max === 'number' ? () => max : max;
    this.idleGraceMs = idleGraceMs;
    this.now = now;
  }

  /** Connections counted for `client` now. */
  open(client: string): number {
    return this.byClient.get(client)?.size ?? 0;
  }

  /**
   * Counts `socket` for `client` (moving it from the client it counted for before, if any);
   * false when `client` is at its cap with nothing idle long enough to close, or, when not
   * `makeRoom`, at its cap.
   */
  admit(socket: Duplex, client: string, makeRoom = true): boolean {
    const known = this.counted.get(socket);
    if (known?.client === client) return true;
    const sockets = this.byClient.get(client) ?? new Set<Duplex>();
    if (sockets.size >= this.max(client) && !(makeRoom && this.closeIdle(sockets))) return false;
    if (known) this.forget(socket, known);
    if (!this.watched.has(socket)) {
      this.watched.add(socket);
      socket.once('close', () => this.release(socket));
    }
    sockets.add(socket);
    this.byClient.set(client, sockets);
    this.counted.set(socket, {
      client,
      busy: known?.busy ?? 0,
      idleSince: known ? known.idleSince : null,
      upgraded: known?.upgraded ?? false,
    });
    return true;
  }

  /** Stops counting `socket`, if it counted. */
  release(socket: Duplex): void {
    const counted = this.counted.get(socket);
    if (counted) this.forget(socket, counted);
    this.counted.delete(socket);
  }

  requestStarted(socket: Duplex): void {
    const counted = this.counted.get(socket);
    if (counted) counted.busy += 1;
  }

  requestEnded(socket: Duplex): void {
    const counted = this.counted.get(socket);
    if (!counted) return;
    counted.busy = Math.max(0, counted.busy - 1);
    if (counted.busy === 0) counted.idleSince = this.now();
  }

  upgraded(socket: Duplex): void {
    const counted = this.counted.get(socket);
    if (counted) counted.upgraded = true;
  }

  /**
   * Closes the longest-idle keep-alive connection among `sockets` that has been idle for the
   * grace period; false when none has. A connection that has carried no request is never closed
   * here: its request may be on its way, and closing on unread bytes resets the connection.
   */
  private closeIdle(sockets: Set<Duplex>): boolean {
    const idleBefore = this.now() - this.idleGraceMs;
    let idlest: [Duplex, Counted] | undefined;
    for (const socket of sockets) {
      const counted = this.counted.get(socket);
      if (!counted || counted.busy > 0 || counted.upgraded || counted.idleSince === null) continue;
      if (counted.idleSince > idleBefore) continue;
      if (!idlest || counted.idleSince < idlest[1].idleSince!) idlest = [socket, counted];
    }
    if (!idlest) return false;
    this.forget(...idlest);
    idlest[0].destroy();
    return true;
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

/**
 * How long a refused connection is still read from, at most, for its client to read the answer
 * and hang up: a socket closed with unread bytes sends a reset, which can destroy the answer on
 * its way.
 */
const LINGER_MS = 2_000;

/** Answers 429 on a raw socket and closes it once the client has hung up, or after a while. */
function refuse(socket: Duplex): void {
  socket.end(REFUSAL);
  socket.resume();
  const close = () => socket.destroy();
  socket.once('end', close);
  setTimeout(close, LINGER_MS).unref();
}

/**
 * How many connections the address of a trusted proxy may hold, in caps of one client: it
 * carries the connections of many clients, each of which is capped by its forwarded address too.
 * Well under HTTP_MAX_CONNECTIONS / HTTP_MAX_CONNECTIONS_PER_CLIENT (10 by default), so that one
 * address, even a proxy's (with `TRUST_PROXY` a count, any peer), cannot hold every connection;
 * `HTTP_CLIENT_CAP_EXEMPT` lifts it for a proxy that needs more.
 */
export const PROXY_CONNECTIONS_FACTOR = 3;

/** What {@link capConnectionsPerClient} is given. */
export interface ClientCapOptions {
  /** The connections of one client address. */
  max: number;
  /** Whose `X-Forwarded-For` is believed: the rule of `request.ip`. */
  trust: ProxyTrust;
  /** Addresses the cap does not apply to (`HTTP_CLIENT_CAP_EXEMPT`). */
  exempt: (address: string) => boolean;
  /** See {@link IDLE_GRACE_MS}, the default. */
  idleGraceMs?: number;
}

/**
 * Caps the connections of each client address on `fastify`'s server at `max`, HTTP and WebSocket
 * alike, with the client address Fastify gives `request.ip`.
 *
 * Every connection counts for its peer (the socket's address) from the moment it connects,
 * whether or not it ever sends a request; a peer that is a trusted proxy may hold
 * {@link PROXY_CONNECTIONS_FACTOR} times the cap. Behind a proxy, a connection also counts for the
 * forwarded client of its latest request, capped at `max`.
 *
 * Past a cap, the client's longest-idle keep-alive connection is closed to make room, if one has
 * been idle for the grace period. Otherwise the client is answered 429 with `Retry-After` and
 * `Connection: close`, never reset: a new connection over its peer's cap is read until its first
 * request, which gets the 429, or answered 429 unasked if it sends nothing within the grace
 * period; a request over its forwarded client's cap gets the 429. A refused connection is read
 * until its client hangs up, so that closing it sends no reset.
 */
export function capConnectionsPerClient(fastify: FastifyInstance, options: ClientCapOptions): void {
  const { max, trust, exempt, idleGraceMs = IDLE_GRACE_MS } = options;
  const peers = new ConnectionsPerClient({
    max: (peer) => (trust(peer, 0) ? max * PROXY_CONNECTIONS_FACTOR : max),
    idleGraceMs,
  });
  const forwarded = new ConnectionsPerClient({ max, idleGraceMs });
  /** The peer of each connection: the address of its socket. */
  const peerOf = new WeakMap<Duplex, string>();
  /** Connections over their peer's cap, until their first request. */
  const waiting = new WeakSet<Duplex>();
  /** Connections answered 429 on the raw socket: Fastify must not answer them again. */
  const refused = new WeakSet<Duplex>();
  const refuseRaw = (socket: Duplex) => {
    refused.add(socket);
    refuse(socket);
  };

  /**
   * Counts `socket` for its peer and, when forwarded, for `client`; false past either cap. An
   * exempt address is not counted, but the clients an exempt proxy forwards are.
   */
  const admit = (socket: Duplex, client: string): boolean => {
    const peer = peerOf.get(socket) ?? '';
    if (waiting.has(socket)) {
      if (!peers.admit(socket, peer)) return false;
      waiting.delete(socket);
    }
    if (client !== peer && !exempt(client)) return forwarded.admit(socket, client);
    forwarded.release(socket);
    return true;
  };

  const server = fastify.server as Server;
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    peerOf.set(socket, peer);
    // Room is made for a request, not for a connection: the client may be sending its next
    // request on the idle connection that would be closed.
    if (exempt(peer) || peers.admit(socket, peer, false)) return;
    waiting.add(socket);
    setTimeout(() => {
      if (waiting.has(socket) && socket.bytesRead === 0 && !socket.destroyed) refuseRaw(socket);
    }, idleGraceMs).unref();
  });
  // Registered before the WebSocket server's listener, which leaves a refused socket alone.
  server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    if (refused.has(socket)) return;
    if (!admit(socket, clientAddressOf(request, trust))) return refuseRaw(socket);
    peers.upgraded(socket);
    forwarded.upgraded(socket);
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket;
    // Answered already; the connection closes once its client has read that answer.
    if (refused.has(socket)) return void reply.hijack();
    if (!admit(socket, request.ip)) {
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
    peers.requestStarted(socket);
    forwarded.requestStarted(socket);
    reply.raw.once('close', () => {
      peers.requestEnded(socket);
      forwarded.requestEnded(socket);
    });
    done();
  });
}
