import type { Server } from 'node:http';
import { connect, Socket } from 'node:net';

/** A raw keep-alive connection to the app, with everything the server answered on it. */
export interface Connection {
  socket: Socket;
  answer(): string;
  closed: Promise<void>;
}

export function open(port: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
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
