import { CREATE_POST } from './helpers/documents';
import { CapturedLogs } from './helpers/logs';
import { TestApp, TestUser } from './helpers/test-app';

const ID = '01900000-0000-7000-8000-00000000000a';
const BAD_AFTER = { code: 'BAD_USER_INPUT', field: 'after' };
const encode = (bytes: string | number[]) =>
  (typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes)).toString('base64url');
const ascii = (text: string) => [...Buffer.from(text)];

/**
 * Cursors no page ever ends with: bad bytes inside a well-formed base64url cursor (NUL and other
 * controls, text that is not UTF-8, an encoded surrogate), and bad characters in the argument
 * itself. Each is put in the form of every kind of cursor, so that it reaches the byte check of
 * each decoder rather than stopping at a prefix that does not match.
 */
const HOSTILE: [string, (prefix: string) => string][] = [
  ['a NUL in the text', (prefix) => encode(`${prefix}a\u0000b`)],
  ['a NUL ending an id', (prefix) => encode(`${prefix}${ID}\u0000`)],
  ['an escape', (prefix) => encode(`${prefix}\u001b[2J`)],
  ['a C1 control', (prefix) => encode(`${prefix}a\u0085`)],
  ['bytes that are not UTF-8', (prefix) => encode([...ascii(prefix), 0xc3, 0x28, 0xff])],
  ['an encoded lone surrogate', (prefix) => encode([...ascii(prefix), 0xed, 0xa0, 0x80])],
  ['an overlong NUL', (prefix) => encode([...ascii(prefix), 0xc0, 0x80])],
  ['a control character in the argument', (prefix) => `${encode(prefix)}\u0001`],
  ['a lone surrogate in the argument', (prefix) => `${encode(prefix)}\ud800`],
  ['padding and plain base64', (prefix) => Buffer.from(`${prefix}${ID}?`).toString('base64')],
];

/** Every paged field whose `after` is an opaque cursor, with the prefix its cursors carry. */
const CURSOR_FIELDS: { name: string; prefix: string; query: string; signedIn?: boolean }[] = [
  {
    name: 'postsConnection',
    prefix: 'post:1:',
    query: `query ($after: String) { postsConnection(after: $after) { edges { cursor } } }`,
  },
  {
    name: 'searchPosts',
    prefix: 'search:0.5:1:',
    query: `query ($after: String) { searchPosts(query: "cursor", after: $after) { edges { cursor } } }`,
  },
  {
    name: 'popularTags',
    prefix: 'tag:1:',
    query: `query ($after: String) { popularTags(after: $after) { edges { cursor } } }`,
  },
  {
    name: 'tag.posts',
    prefix: 'post:1:',
    query: `query ($after: String) { tag(slug: "cursors") { posts(after: $after) { edges { cursor } } } }`,
  },
  {
    name: 'notifications',
    prefix: 'notification:',
    query: `query ($after: String) { notifications(after: $after) { edges { cursor } } }`,
    signedIn: true,
  },
  {
    name: 'myBookmarks',
    prefix: 'bookmark:1:',
    query: `query ($after: String) { myBookmarks(after: $after) { edges { cursor } } }`,
    signedIn: true,
  },
];

/** Every paged field whose `after` is an id. */
const ID_FIELDS: { name: string; query: string; signedIn?: boolean }[] = [
  { name: 'posts', query: `query ($after: ID) { posts(after: $after) { id } }` },
  { name: 'users', query: `query ($after: ID) { users(after: $after) { id } }` },
  {
    name: 'user.posts',
    query: `query ($after: ID) { users(first: 1) { posts(after: $after) { id } } }`,
  },
  {
    name: 'post.comments',
    query: `query ($after: ID) { posts(first: 1) { comments(after: $after) { id } } }`,
  },
  { name: 'feed', query: `query ($after: ID) { feed(after: $after) { id } }`, signedIn: true },
  {
    name: 'myDrafts',
    query: `query ($after: ID) { myDrafts(after: $after) { id } }`,
    signedIn: true,
  },
];

describe('Hostile cursors on every paged field (e2e)', () => {
  let t: TestApp;
  let reader: TestUser;
  const logs = new CapturedLogs();

  beforeAll(async () => {
    t = await TestApp.start({ logs });
    reader = await t.signUp();
    // Something on every list, so that each field runs its paged statement.
    await t.data(
      CREATE_POST,
      { input: { title: 'Cursor tests', content: 'cursor', tags: ['cursors'] } },
      reader.token,
    );
  });
  afterAll(() => t.close());

  it.each(CURSOR_FIELDS.map((field) => [field.name, field] as const))(
    'should answer every hostile cursor of %s with BAD_USER_INPUT, and log no error',
    async (_, field) => {
      const before = logs.raw.length;
      const token = field.signedIn ? reader.token : undefined;
      const answers: [string, unknown][] = [];
      for (const [kind, cursor] of HOSTILE) {
        const response = await t.gql(field.query, { after: cursor(field.prefix) }, token);
        answers.push([kind, response.errors?.map((error) => error.extensions)]);
      }
      expect(answers).toEqual(HOSTILE.map(([kind]) => [kind, [BAD_AFTER]]));
      const lines = logs.lines.slice(before);
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    },
  );

  it.each(ID_FIELDS.map((field) => [field.name, field] as const))(
    'should answer every hostile after of %s with BAD_USER_INPUT, and log no error',
    async (_, field) => {
      const before = logs.raw.length;
      const token = field.signedIn ? reader.token : undefined;
      for (const after of [`${ID}\u0001`, `${ID.slice(0, -1)}\ud800`, `\u0085${ID.slice(1)}`]) {
        const response = await t.gql(field.query, { after }, token);
        expect(response.errors?.map((error) => error.extensions)).toEqual([BAD_AFTER]);
      }
      const lines = logs.lines.slice(before);
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    },
  );

  it('should refuse a NUL in a popularTags cursor, the case that once reached PostgreSQL', async () => {
    const response = await t.gql(
      `query ($after: String) { popularTags(after: $after) { edges { cursor } } }`,
      { after: encode('tag:1:graphql\u0000') },
    );
    expect(response.errors?.map((error) => error.extensions)).toEqual([BAD_AFTER]);
    expect(response.errors?.[0].message).toMatch(/endCursor/);
  });

  it('should still page on with the cursors the service hands out', async () => {
    const first = await t.data(
      `{ popularTags(first: 1) { edges { cursor node { slug } } pageInfo { endCursor } } }`,
    );
    const after = first.popularTags.pageInfo.endCursor as string;
    expect(first.popularTags.edges).toEqual([{ cursor: after, node: { slug: 'cursors' } }]);
    const next = await t.data(
      `query ($after: String) { popularTags(after: $after) { edges { cursor } } }`,
      { after },
    );
    expect(next.popularTags.edges).toEqual([]);
  });
});
