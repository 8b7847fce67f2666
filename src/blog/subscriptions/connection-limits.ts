import type { Duplex } from 'node:stream';

const TOO_MANY_CONNECTIONS =
  'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain\r\n' +
  'Content-Length: 39\r\n\r\nToo many WebSocket connections open.\r\n\r\n';

/**
 * The cap on WebSocket connections per client address: a connection counts from its upgrade
 * until its socket closes; an upgrade past the cap is answered 429 and its socket ended.
 */
export class ConnectionLimits {
  private readonly perClient = new Map<string, number>();

  constructor(private readonly maxPerClient: number) {}

  /**
   * Counts `socket` for `client`, until it closes or the returned release is called (whichever
   * comes first; the count drops once); null when the cap refused it.
   */
  admit(client: string, socket: Duplex): (() => void) | null {
    const open = this.perClient.get(client) ?? 0;
    if (open >= this.maxPerClient) {
      socket.end(TOO_MANY_CONNECTIONS);
      return null;
    }
    this.perClient.set(client, open + 1);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    };
    socket.once('close', release);
    return release;
  }
}
