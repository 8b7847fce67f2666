import { DifferentialPair } from './harness';
import { Normaliser, Observation, Reply, differences } from './normalise';
import { BOB, P1, P2 } from './seed';

/**
 * The differential suite can fail: its comparison sees a changed message, path, location, code,
 * status, key order, row or logged error, and its normalising hides only what legitimately
 * differs between two instances.
 */

const SINCE = new Date('2026-01-01T00:00:00.000Z');
const SEED_HASH = '$argon2id$v=19$m=19456,t=2,p=1$seedsalt$seedhash';
const NEW_ID_A = '019ab000-0000-7000-8000-00000000000a';
const NEW_ID_B = '019ab000-0000-7000-8000-00000000000b';
const NOW_A = '2026-11-24T08:00:00.123Z';
const NOW_B = '2026-11-24T08:00:01.456Z';

const normaliser = () => new Normaliser(new Set([BOB, P1, P2]), new Set([SEED_HASH]), SINCE);

function reply(body: unknown, status = 200): Reply {
  return { status, contentType: 'application/json; charset=utf-8', body };
}

const failed = (overrides: Record<string, unknown> = {}) =>
  reply({
    errors: [
      {
        message: 'Post was not found.',
        locations: [{ line: 1, column: 12 }],
        path: ['a'],
        extensions: { code: 'NOT_FOUND' },
        ...overrides,
      },
    ],
    data: null,
  });

const row = (overrides: Record<string, unknown> = {}) => ({
  id: BOB,
  name: 'Bob Writer',
  avatar: 'https://example.com/bob.png',
  password_hash: SEED_HASH,
  updated_at: '2025-01-02 12:00:00.014',
  token_version: 0,
  ...overrides,
});

function observation(
  replies: Reply[],
  users: Record<string, unknown>[] = [row()],
  unexpected: string[] = [],
): Observation {
  return { replies, tables: { users, posts: [] }, unexpected };
}

/** The differences between two raw observations, each normalised as the suite does. */
const compare = (oracle: Observation, compiled: Observation) =>
  differences(normaliser().observation(oracle), normaliser().observation(compiled));

const jwt = (claims: Record<string, unknown>) =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;

describe('The differential comparison', () => {
  it('should find no difference between equal observations', () => {
    expect(compare(observation([failed()]), observation([failed()]))).toEqual([]);
  });

  it.each([
    ['a message', { message: 'Post was not found!' }, 'send 1.body.errors[0].message'],
    ['a path', { path: ['b'] }, 'send 1.body.errors[0].path[0]'],
    ['a location', { locations: [{ line: 1, column: 13 }] }, 'send 1.body.errors[0].locations'],
    ['a code', { extensions: { code: 'BAD_USER_INPUT' } }, 'send 1.body.errors[0].extensions'],
    ['a missing path', { path: undefined }, 'send 1.body.errors[0].path'],
  ])('should see a changed error: %s', (_, overrides, where) => {
    const found = compare(observation([failed()]), observation([failed(overrides)]));
    expect(found).toEqual([expect.stringContaining(where)]);
  });

  it('should take errors in any order, each compared in full', () => {
    const two = (first: Record<string, unknown>, second: Record<string, unknown>) =>
      reply({ errors: [first, second], data: null });
    const a = { message: 'A failed.', path: ['a'] };
    const b = { message: 'B failed.', path: ['b'] };
    expect(compare(observation([two(a, b)]), observation([two(b, a)]))).toEqual([]);
    expect(
      compare(observation([two(a, b)]), observation([two(b, { ...a, message: 'A!' })])),
    ).toEqual(['send 1.body.errors[0].message: "A failed.", compiled: "A!"']);
  });

  it('should see a changed status', () => {
    const found = compare(
      observation([failed(), failed()]),
      observation([failed(), { ...failed(), status: 400 }]),
    );
    expect(found).toEqual(['send 2.status: 200, compiled: 400']);
  });

  it('should see data where there was none, and a missing send', () => {
    const found = compare(
      observation([failed(), failed()]),
      observation([reply({ data: { a: P1 } })]),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringContaining('send 1.body.errors: '),
        expect.stringContaining('send 1.body.data: null'),
        expect.stringContaining('send 2: '),
      ]),
    );
  });

  it('should see fields in another order', () => {
    const found = compare(
      observation([reply({ data: { post: { id: P1, title: 'Hello' } } })]),
      observation([reply({ data: { post: { title: 'Hello', id: P1 } } })]),
    );
    expect(found).toEqual(['send 1.body.data.post: keys in order id,title, compiled title,id']);
  });

  it('should see a changed column, an extra row and a missing row', () => {
    const found = compare(
      observation([], [row(), row({ id: P2 })]),
      observation([], [row({ avatar: null }), row({ id: NEW_ID_A })]),
    );
    expect(found).toEqual([
      `tables.users (${BOB}).avatar: "https://example.com/bob.png", compiled: null`,
      expect.stringMatching(/^tables\.users \(01920000-.*\): only on graphql-js/),
      expect.stringMatching(/^tables\.users \(<new id 1>\): only on compiled/),
    ]);
  });

  it('should see a timestamp the seed had and one the run wrote', () => {
    const found = compare(
      observation([], [row()]),
      observation([], [row({ updated_at: NOW_A.replace('T', ' ').replace('Z', '') })]),
    );
    expect(found).toEqual([
      `tables.users (${BOB}).updated_at: "2025-01-02T12:00:00.014Z", compiled: "<time of the run>"`,
    ]);
  });

  it('should see a password changed on one side only', () => {
    const found = compare(
      observation([], [row({ password_hash: '$argon2id$new-one' })]),
      observation([], [row()]),
    );
    expect(found).toHaveLength(1);
  });

  it('should see an unexpected error logged on one side only', () => {
    const found = compare(
      observation([failed()]),
      observation([failed()], [row()], ['Unexpected error at a: boom']),
    );
    expect(found).toEqual(['unexpected errors logged: 0 items, compiled 1']);
  });

  it('should see the same new id twice where the other side has two ids', () => {
    const twice = reply({ data: { a: { id: NEW_ID_A }, b: { id: NEW_ID_A } } });
    const two = reply({ data: { a: { id: NEW_ID_A }, b: { id: NEW_ID_B } } });
    expect(compare(observation([twice]), observation([two]))).toEqual([
      'send 1.body.data.b.id: "<new id 1>", compiled: "<new id 2>"',
    ]);
  });

  it('should see a JWT of another user or token version', () => {
    const token = (sub: string, ver: number) =>
      reply({ data: { logIn: { token: jwt({ sub, ver, iat: 1, exp: 3601 }) } } });
    expect(compare(observation([token(BOB, 0)]), observation([token(P1, 0)]))).toHaveLength(1);
    expect(compare(observation([token(BOB, 0)]), observation([token(BOB, 1)]))).toHaveLength(1);
  });

  it('should read the new ids and times inside every kind of cursor, and keep the rest', () => {
    const encode = (text: string) => Buffer.from(text).toString('base64url');
    const cursors = (id: string, now: string, rank: number, count: number) =>
      observation([
        reply({
          data: {
            bookmark: encode(`bookmark:${Date.parse(now)}:${id}`),
            notification: encode(`notification:${id}`),
            search: encode(`search:${rank}:${Date.parse('2025-01-11T12:00:02.079Z')}:${P1}`),
            tag: encode(`tag:${count}:graphql-and-more`),
          },
        }),
      ]);
    expect(compare(cursors(NEW_ID_A, NOW_A, 1.5, 3), cursors(NEW_ID_B, NOW_B, 1.5, 3))).toEqual([]);
    expect(normaliser().observation(cursors(NEW_ID_A, NOW_A, 1.5, 3)).replies[0].body).toEqual({
      data: {
        bookmark: '<cursor bookmark:<time of the run>:<new id 1>>',
        notification: '<cursor notification:<new id 1>>',
        search: `<cursor search:1.5:2025-01-11T12:00:02.079Z:${P1}>`,
        tag: '<cursor tag:3:graphql-and-more>',
      },
    });
    expect(compare(cursors(NEW_ID_A, NOW_A, 1.5, 3), cursors(NEW_ID_A, NOW_A, 1.25, 2))).toEqual([
      expect.stringContaining('send 1.body.data.search: "<cursor search:1.5:'),
      expect.stringContaining('send 1.body.data.tag: "<cursor tag:3:'),
    ]);
  });

  it('should hide what two instances legitimately differ in, and nothing else', () => {
    const answer = (id: string, now: string, iat: number, hash: string) =>
      observation(
        [
          reply({
            data: {
              signUp: {
                token: jwt({ sub: id, ver: 0, iat, exp: iat + 3600 }),
                expiresAt: now,
                user: { id, createdAt: now },
              },
              cursor: Buffer.from(`post:${Date.parse(now)}:${id}`).toString('base64url'),
            },
          }),
          reply({ errors: [{ message: `User ${id.toUpperCase()} exists since ${now}.` }] }),
        ],
        [row(), row({ id, password_hash: hash, updated_at: new Date(now) })],
      );
    const oracle = answer(NEW_ID_A, NOW_A, 1000, '$argon2id$one');
    const compiled = answer(NEW_ID_B, NOW_B, 1005, '$argon2id$two');
    expect(compare(oracle, compiled)).toEqual([]);
    expect(normaliser().observation(oracle)).toMatchObject({
      replies: [
        {
          body: {
            data: {
              signUp: {
                token: '<jwt {"sub":"<new id 1>","ver":0,"lifetime":3600}>',
                expiresAt: '<time of the run>',
                user: { id: '<new id 1>' },
              },
              cursor: '<cursor post:<time of the run>:<new id 1>>',
            },
          },
        },
        {
          body: {
            errors: [
              { message: 'User <new id 1> (as upper case) exists since <time of the run>.' },
            ],
          },
        },
      ],
      tables: {
        users: [
          row({ updated_at: '2025-01-02T12:00:00.014Z', password_hash: '<seed password hash>' }),
          { password_hash: '<new password hash 1>' },
        ],
      },
    });
  });
});

describe('The differential harness (e2e)', () => {
  let pair: DifferentialPair;

  beforeAll(async () => {
    // The "compiled" side here differs on purpose: a lower depth limit, and writes limited.
    pair = await DifferentialPair.start(
      {},
      { GRAPHQL_MAX_DEPTH: '3', RATE_LIMIT_WRITES_PER_MINUTE: '1' },
    );
  }, 60_000);

  afterAll(() => pair?.close());

  it('should find no difference where the two agree', async () => {
    const run = await pair.run(['posts', '{ posts { id title } }']);
    expect(run.differences).toEqual([]);
    expect(run.oracle.replies).toHaveLength(3);
  });

  it('should report a different answer', async () => {
    const run = await pair.run([
      'deep',
      `{ post(id: "${P1}") { author { posts { author { id } } } } }`,
    ]);
    expect(run.differences).toEqual(
      expect.arrayContaining([expect.stringMatching(/^send 1\.body\.data: /)]),
    );
  });

  it('should report different rows left in the database', async () => {
    const run = await pair.run([
      'two writes',
      'mutation { createPost(input: {title: "T", content: "C"}) { title } }',
      null,
      'user',
    ]);
    expect(run.differences).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^send 2\.body\.data: /),
        expect.stringMatching(/^tables\.posts \(<new id 2>\): only on graphql-js/),
      ]),
    );
  });
});
