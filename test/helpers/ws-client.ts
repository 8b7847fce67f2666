import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface Closed {
  code: number;
  reason: string;
}

/** A graphql-ws client on a real WebSocket, as browsers and Node clients use it. */
export function wsClient(
  url: string,
  authorization?: string,
): { client: Client; closed: Promise<Closed> } {
  let onClosed: (closed: Closed) => void = () => undefined;
  const closed = new Promise<Closed>((resolve) => (onClosed = resolve));
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams: authorization === undefined ? {} : { authorization },
    on: {
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: string | Buffer };
        onClosed({ code, reason: reason.toString() });
      },
    },
    onNonLazyError: () => undefined,
  });
  return { client, closed };
}

/** Subscribes and collects results; `next(n)` waits until n have arrived (bounded by a timeout). */
export function collect<T = Record<string, any>>(client: Client, query: string, variables = {}) {
  const results: {
    data?: T | null;
    errors?: { message: string; extensions?: { code?: string } }[];
  }[] = [];
  let wake: () => void = () => undefined;
  let completed = false;
  const dispose = client.subscribe<T>(
    { query, variables },
    {
      next: (result) => {
        results.push(result as (typeof results)[number]);
        wake();
      },
      error: (error) => {
        results.push({ errors: Array.isArray(error) ? error : [{ message: String(error) }] });
        completed = true;
        wake();
      },
      complete: () => {
        completed = true;
        wake();
      },
    },
  );
  return {
    results,
    dispose,
    get completed() {
      return completed;
    },
    async next(count: number, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (results.length < count && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return results.slice(0, count);
    },
  };
}

/** Waits long enough for an event that should not come to have come. */
export const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens a raw graphql-ws socket to `url` (kept in `sockets`, for the caller to close) and
 * resolves the upgrade's status: 101 when it opened, the refusal's status otherwise, 0 on a
 * network error. `options` sets the socket's local address or headers.
 */
export const upgradeStatus = (
  url: string,
  sockets: WebSocket[],
  options: WebSocket.ClientOptions = {},
) =>
  new Promise<number>((resolve) => {
    const socket = new WebSocket(url, 'graphql-transport-ws', options);
    sockets.push(socket);
    socket.once('open', () => resolve(101));
    socket.once('unexpected-response', (_, response) => resolve(response.statusCode ?? 0));
    socket.once('error', () => resolve(0));
  });
