import type { Server } from 'node:http';

import { CREATE_POST } from './helpers/documents';
import { insertUsersWithPosts } from './helpers/fixtures';
import { accepted as acceptedBy, open, post } from './helpers/raw-http';
import { TestApp, TestUser } from './helpers/test-app';

/** A query that takes the server a while: 40 users with 25 posts each, and their authors. */
const SLOW_QUERY = `{ users(first: 40) { id name posts(first: 25) { id title author { name handle } } } }`;

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
  const accepted = (count: number) => acceptedBy(t.app.getHttpServer() as Server, count);

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
