import { registerAs } from '@nestjs/config';

import { loadDatabaseConfig } from './database.config';
import { readAddressRanges, readInteger } from './env';
import { SETTINGS } from './settings.schema';

/** Limits of the HTTP server, so that slow or idle clients cannot hold connections forever. */
export interface HttpConfig {
  /** The whole request, headers and body, must arrive within this time, or the socket closes. */
  requestTimeoutMs: number;
  /** A socket with no traffic for this long is closed. */
  connectionTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** Open connections (HTTP and WebSocket) the server accepts at once; more are dropped. */
  maxConnections: number;
  /**
   * Open connections (HTTP and WebSocket) of one client address; past it the client's idle
   * keep-alive connections are closed first, and new ones refused when none is idle.
   */
  maxConnectionsPerClient: number;
  /**
   * Client addresses and CIDR ranges (proxy-addr's syntax) that `maxConnectionsPerClient` does
   * not apply to: a server-side-rendering front-end, an internal gateway.
   */
  clientCapExempt: readonly string[];
  /** The largest request body, in bytes; larger ones get 413. */
  maxBodyBytes: number;
  /**
   * GraphQL requests started and not answered yet, over all clients; more wait, clients taking
   * turns, until one is answered. 0: no cap (the default on SQLite, whose statements do not wait
   * for a connection); on PostgreSQL twice the pool by default.
   */
  maxRequestsInFlight: number;
}

export function loadHttpConfig(env: NodeJS.ProcessEnv = process.env): HttpConfig {
  const maxConnections = readInteger(env, SETTINGS.HTTP_MAX_CONNECTIONS);
  return {
    requestTimeoutMs: readInteger(env, SETTINGS.HTTP_REQUEST_TIMEOUT_MS),
    connectionTimeoutMs: readInteger(env, SETTINGS.HTTP_CONNECTION_TIMEOUT_MS),
    keepAliveTimeoutMs: readInteger(env, SETTINGS.HTTP_KEEP_ALIVE_TIMEOUT_MS),
    maxConnections,
    // A tenth of all by default, so that no one address holds them all.
    maxConnectionsPerClient: readInteger(env, SETTINGS.HTTP_MAX_CONNECTIONS_PER_CLIENT, {
      default: Math.max(1, Math.floor(maxConnections / 10)),
      max: maxConnections,
    }),
    clientCapExempt: readAddressRanges(env, SETTINGS.HTTP_CLIENT_CAP_EXEMPT),
    maxBodyBytes: readInteger(env, SETTINGS.GRAPHQL_MAX_BODY_BYTES),
    maxRequestsInFlight: readInteger(env, SETTINGS.HTTP_MAX_REQUESTS_IN_FLIGHT, {
      default: Math.min(defaultRequestsInFlight(env), maxConnections),
      max: maxConnections,
    }),
  };
}

/**
 * Twice the pool on PostgreSQL: past that, a started request only waits for a connection at each
 * of its statements while what it allocated ages into V8's old space (Q2 of the benchmark, six
 * statements a request, spent most of its CPU in the collector that way). No cap on SQLite.
 */
function defaultRequestsInFlight(env: NodeJS.ProcessEnv): number {
  const database = loadDatabaseConfig(env);
  return database.type === 'postgres' ? 2 * database.poolSize : 0;
}

export const httpConfig = registerAs('http', () => loadHttpConfig());
