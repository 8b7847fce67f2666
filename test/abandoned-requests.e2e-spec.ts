import { request as httpRequest } from 'node:http';

import { CommentsService, Post, PostsService } from '../src/blog';
import { ADD_COMMENT, CREATE_POST } from './helpers/documents';
import { CapturedLogs } from './helpers/logs';
import { TestApp, TestUser } from './helpers/test-app';
import { clientClosedRequest } from '../src/blog/common/errors';
import {
  currentRequestScope,
  RequestScope,
  runInRequestScope,
} from '../src/blog/common/request-scope';
import { statement, Sql } from '../src/blog/common/sql';

const THREE_POSTS = `mutation Abandoned {
  a: createPost(input: { title: "Abandoned A", content: "x" }) { id }
  b: createPost(input: { title: "Abandoned B", content: "x" }) { id }
  c: createPost(input: { title: "Abandoned C", content: "x" }) { id }
}`;

const POSTS_WITH_COMMENTS = `query AbandonedRead {
  posts(first: 10) { id author { name } comments { text author { name } } }
}`;

/**
 * Waits, inside the service call that `spy` wraps (its `nth` call), until the request it runs
 * for has stopped, then lets the call go on: the client hangs up while the operation is under way,
 * at a point the test chooses, with no timing involved.
 */
function holdUntilStopped<T extends object, K extends keyof T>(target: T, method: K, nth = 1) {
  const original = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
  let calls = 0;
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const spy = jest.spyOn(target, method as never).mockImplementation((async (
    ...args: unknown[]
  ) => {
    calls += 1;
    if (calls === nth) {
      const scope = currentRequestScope();
      reached();
      if (scope && !scope.stopped) {
        await new Promise((resolve) => scope.signal.addEventListener('abort', resolve));
      }
    }
    return original(...args);
  }) as never);
  return { held, restore: () => spy.mockRestore() };
}

describe('Abandoned requests (e2e)', () => {
  let t: TestApp;
  let url: URL;
  let writer: TestUser;
  const logs = new CapturedLogs();

  /** Sends `query` on a socket of its own, and hangs up once `held` says the server got there. */
  const sendAndHangUp = async (query: string, token: string | undefined, held: Promise<void>) => {
    const body = JSON.stringify({ query });
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        ...(token ? { authorization: token } : {}),
      },
    });
    req.on('error', () => undefined);
    req.end(body);
    await held;
    req.destroy();
  };

  /** The operation's log line, written once the server has finished with it. */
  const finished = async (operationName: string) => {
    const [line] = await logs.find({ msg: 'graphql operation', operationName }, 10_000);
    expect(line).toBeDefined();
    return line;
  };

  const titled = (title: string) => t.dataSource.getRepository(Post).countBy({ title });

  beforeAll(async () => {
    t = await TestApp.start({ logs, env: { LOG_LEVEL: 'info' } });
    url = new URL((await t.listen()).http);
    writer = await t.signUp({ name: 'Writer' });
  });
  afterAll(() => t.close());

  it('should write no root mutation field after the client hangs up, and keep those before', async () => {
    // The same operation run to its end: the work an abandoned one should not do.
    const complete = THREE_POSTS.replace('mutation Abandoned', 'mutation Complete');
    const full = await t.statements.count(() => t.data(complete, {}, writer.token));
    await t.dataSource.getRepository(Post).delete({ authorId: writer.user.id });

    const posts = t.app.get(PostsService);
    const hold = holdUntilStopped(posts, 'create', 2);
    const before = t.statements.statements.length;
    try {
      await sendAndHangUp(THREE_POSTS, writer.token, hold.held);
      const line = await finished('Abandoned');
      expect(line.errorCodes).toContain('CLIENT_CLOSED_REQUEST');
    } finally {
      hold.restore();
    }
    const abandoned = t.statements.statements.length - before;

    expect(await titled('Abandoned A')).toBe(1);
    expect(await titled('Abandoned B')).toBe(0);
    expect(await titled('Abandoned C')).toBe(0);
    expect(abandoned).toBeLessThan(full);
    expect(
      t.statements.statements.slice(before).filter((s) => /INSERT INTO posts/i.test(s)),
    ).toHaveLength(1);
  });

  it('should read nothing more for a query once its client has hung up', async () => {
    const reader = await t.signUp({ name: 'Reader' });
    for (let i = 0; i < 3; i++) {
      const { createPost } = await t.data(
        CREATE_POST,
        { input: { title: `Read ${i}`, content: 'x' } },
        writer.token,
      );
      await t.data(ADD_COMMENT, { postId: createPost.id, text: 'Nice' }, reader.token);
    }
    const complete = POSTS_WITH_COMMENTS.replace('query AbandonedRead', 'query CompleteRead');
    const full = await t.statements.count(() => t.data(complete));

    const comments = t.app.get(CommentsService);
    const hold = holdUntilStopped(comments, 'listByPosts');
    const before = t.statements.statements.length;
    try {
      await sendAndHangUp(POSTS_WITH_COMMENTS, undefined, hold.held);
      await finished('AbandonedRead');
    } finally {
      hold.restore();
    }
    const ran = t.statements.statements.slice(before);

    // The page and its authors were read before the hang-up; the comments, and their authors,
    // never were.
    expect(ran.filter((s) => /FROM comments/i.test(s))).toEqual([]);
    expect(ran.length).toBeLessThan(full);
  });

  it('should finish a transaction under way when its operation stops, and begin no other', async () => {
    const sql = t.app.get(Sql);
    const rename = sql.prepare({
      rename: statement<{ id: string; name: string }>(
        'UPDATE users SET name = :name WHERE id = :id',
      ),
    }).rename;
    const user = await t.signUp({ name: 'Renamed' });
    const id = user.user.id;
    const nameOf = async () =>
      (
        await t.data<{ user: { name: string } }>('query ($id: ID!) { user(id: $id) { name } }', {
          id,
        })
      ).user.name;
    const scope = new RequestScope();

    await runInRequestScope(scope, () =>
      sql.transaction(async (tx) => {
        await tx.run(rename, { id, name: 'First' });
        scope.stop(clientClosedRequest());
        await tx.run(rename, { id, name: 'Second' });
      }),
    );
    expect(await nameOf()).toBe('Second');

    const refused = (work: () => Promise<unknown>) =>
      runInRequestScope(scope, work).then(
        () => 'ran',
        (error: { extensions?: { code?: string } }) => error.extensions?.code,
      );
    expect(await refused(() => sql.run(rename, { id, name: 'Outside' }))).toBe(
      'CLIENT_CLOSED_REQUEST',
    );
    expect(
      await refused(() => sql.transaction((tx) => tx.run(rename, { id, name: 'Another' }))),
    ).toBe('CLIENT_CLOSED_REQUEST');
    expect(await nameOf()).toBe('Second');
  });
});
