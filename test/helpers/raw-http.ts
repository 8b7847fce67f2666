import type { Server } from 'node:http';
import { connect, Socket } from 'node:net';

/** A raw keep-alive connection to the app, with everything the server answered on it. */
export interface Connection {
  socket: Socket;
  answer(): string;
  closed: Promise<void>;
}

/** Opens a connection to 127.0.0.1:`port`, from `localAddress` (127.0.0.x: another client). */
export function open(port: number, localAddress?: string): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () => resolve({ socket, answer: () => answer, closed }));
    socket.once('error', reject);
  });
}

/** The bytes of a POST /graphql that closes its connection once answered. */
export function post(body: unknown, authorization?: string, headers = ''): string {
  const json = JSON.stringify(body);
  return (
    'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
    (authorization ? `Authorization: ${authorization}\r\n` : '') +
    headers +
    `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`
  );
}

/** Resolves with the first whole answer on `connection` (by its Content-Length), or at its end. */
export async function answered(connection: Connection): Promise<string> {
  let ended = false;
  void connection.closed.then(() => (ended = true));
  for (;;) {
    const answer = connection.answer();
    const headEnd = answer.indexOf('\r\n\r\n');
    const length = /content-length: (\d+)/i.exec(answer)?.[1];
    if (headEnd >= 0 && length && answer.length >= headEnd + 4 + Number(length)) return answer;
    if (ended) return answer;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The connections `server` holds open now. */
export function openConnections(server: Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
  );
}

/** Resolves once `server` holds at least `count` open connections. */
export async function accepted(server: Server, count: number): Promise<void> {
  while ((await openConnections(server)) < count) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}
