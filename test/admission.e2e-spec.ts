import type { Server } from 'node:http';
import { connect, Socket } from 'node:net';

import { CREATE_POST } from './helpers/documents';
import { insertUsersWithPosts } from './helpers/fixtures';
import { TestApp, TestUser } from './helpers/test-app';

/** A query that takes the server a while: 40 users with 25 posts each, and their authors. */
const SLOW_QUERY = `{ users(first: 40) { id name posts(first: 25) { id title author { name handle } } } }`;

/** A raw keep-alive connection to the app, with everything the server answered on it. */
interface Connection {
  socket: Socket;
  answer(): string;
  closed: Promise<void>;
}

function open(port: number): Promise<Connection> {
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

/** The bytes of a POST /graphql. */
function post(body: unknown, authorization?: string): string {
  const json = JSON.stringify(body);
  return (
    'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
    (authorization ? `Authorization: ${authorization}\r\n` : '') +
    `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`
  );
}

describe('Admission drops requests whose client has gone (e2e)', () => {
  let t: TestApp;
  let port: number;
  let writer: TestUser;

  beforeAll(async () => {
    t = await TestApp.start({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
    await insertUsersWithPosts(t.dataSource, 40, 25);
    writer = await t.signUp();
    port = Number(new URL((await t.listen()).http).port);
  });
  afterAll(() => t.close());

  /** Resolves once the server holds at least `count` open connections. */
  const accepted = async (count: number): Promise<void> => {
    const server = t.app.getHttpServer() as Server;
    const open = () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
      );
    while ((await open()) < count) await new Promise((resolve) => setImmediate(resolve));
  };

  const postsTitled = async (prefix: string): Promise<number> => {
    const [row] = await t.dataSource.query(
      `SELECT COUNT(*) AS n FROM posts WHERE title LIKE '${prefix}%'`,
    );
    return Number(row.n);
  };

  it.each([1, 2, 3])(
    'should start no queued mutation whose connection closed, and every other one, under overload (round %i)',
    async (round) => {
      const slow = await Promise.all(Array.from({ length: 100 }, () => open(port)));
      const abandoned = await Promise.all(Array.from({ length: 20 }, () => open(port)));
      const kept = await Promise.all(Array.from({ length: 20 }, () => open(port)));
      // The server accepts one waiting connection per turn of its loop: once it has accepted
      // them all, it reads every request below in one turn, and they queue in Admission.
      await accepted(slow.length + abandoned.length + kept.length);
      const mutation = (title: string) =>
        post({ query: CREATE_POST, variables: { input: { title, content: 'x' } } }, writer.token);

      // All in one turn of the event loop, so the server reads them all in its next one: the
      // slow queries first, then mutations whose clients hang up at once, then mutations whose
      // clients wait for the answer, interleaved.
      for (const { socket } of slow) socket.write(post({ query: SLOW_QUERY }));
      for (let i = 0; i < abandoned.length; i++) {
        const { socket } = abandoned[i];
        socket.write(mutation(`abandoned ${round}.${i}`));
        // Handed to the kernel whole, so the server reads the request, then its end.
        expect(socket.writableLength).toBe(0);
        socket.destroy();
        kept[i].socket.write(mutation(`kept ${round}.${i}`));
      }

      await Promise.all([...slow, ...kept].map(({ closed }) => closed));
      for (const { answer } of [...slow, ...kept]) expect(answer()).toMatch(/^HTTP\/1\.1 200 /);
      for (const { answer } of slow) expect(answer()).toContain('{"data":{"users":[{"id"');
      for (const { answer } of kept) expect(answer()).toContain('"createPost":{"id"');
      expect(await postsTitled(`kept ${round}.`)).toBe(kept.length);
      expect(await postsTitled(`abandoned ${round}.`)).toBe(0);
    },
  );

  it('should still answer a request that was queued behind abandoned ones', async () => {
    const response = await t.gql(`{ me { id } }`, {}, writer.token);
    expect(response).toEqual({ data: { me: { id: writer.user.id } } });
  });
});
