import { ADD_COMMENT, CREATE_POST, UPDATE_POST, UPDATE_PROFILE } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';

const SIGN_UP = `mutation ($input: SignUpInput!) { signUp(input: $input) { user { id } } }`;
const CREATE_POST_FLAT = `mutation ($title: String, $content: String, $authorId: ID) {
  createPost(title: $title, content: $content, authorId: $authorId) { id }
}`;

/** Strings with nothing a reader can see: invisible characters only, padded with spaces. */
const INVISIBLE = {
  'zero-width spaces': '\u200B\u200B',
  'Hangul fillers': '\u3164\u115F\u1160\uFFA0',
  'braille blanks': '\u2800\u2800\u2800',
  'a byte-order mark and a soft hyphen': '\uFEFF\u00AD',
  'variation selectors and a combining mark': '\uFE0F\uFE0E\u0301',
  'ideographic spaces around a word joiner': '\u3000\u2060\u3000',
};

/** Text that carries control characters a terminal or a renderer acts on. */
const CONTROLS = {
  'a terminal colour escape': '\u001b[31mRed alert\u001b[0m',
  'a screen-clearing escape': 'Hi\u001b[2J',
  'a bell': 'Ding\u0007',
  'an 8-bit CSI': 'Sneaky\u009b31m',
  'a DEL': 'Oops\u007f',
  'a lone surrogate': 'Half \uD800 a pair',
};

/** For one line of text only: line breaks, tabs and bidirectional overrides. */
const ONE_LINE_ONLY = {
  'a line break': 'First line\nSecond line',
  'a tab': 'Col\tumn',
  'a right-to-left override': 'gnp.\u202Eexe',
};

type Case = { field: string; send: (t: TestApp, user: TestUser, value: string) => Promise<any> };

describe('Visible text: titles, names, content and comments (e2e)', () => {
  let t: TestApp;
  let user: TestUser;
  let postId: string;

  beforeAll(async () => {
    t = await TestApp.start();
    user = await t.signUp({ name: 'Writer' });
    postId = (
      await t.data(CREATE_POST, { input: { title: 'A post', content: 'Its content' } }, user.token)
    ).createPost.id;
  });
  afterAll(() => t.close());

  const createPost = (input: Record<string, string>) => (app: TestApp, who: TestUser) =>
    app.gql(CREATE_POST, { input }, who.token);

  const lines: Case[] = [
    {
      field: 'input.title',
      send: (app, who, v) => createPost({ title: v, content: 'x' })(app, who),
    },
    {
      field: 'title',
      send: (app, who, v) => app.gql(CREATE_POST_FLAT, { title: v, content: 'x' }, who.token),
    },
    {
      field: 'input.title',
      send: (app, who, v) => app.gql(UPDATE_POST, { id: postId, input: { title: v } }, who.token),
    },
    {
      field: 'input.name',
      send: (app, _who, v) =>
        app.gql(SIGN_UP, {
          input: { name: v, email: `n${Math.random()}@example.com`, password: 'long enough pass' },
        }),
    },
    {
      field: 'input.name',
      send: (app, who, v) => app.gql(UPDATE_PROFILE, { input: { name: v } }, who.token),
    },
  ];
  const texts: Case[] = [
    {
      field: 'input.content',
      send: (app, who, v) => createPost({ title: 'Fine', content: v })(app, who),
    },
    {
      field: 'content',
      send: (app, who, v) => app.gql(CREATE_POST_FLAT, { title: 'Fine', content: v }, who.token),
    },
    {
      field: 'input.content',
      send: (app, who, v) => app.gql(UPDATE_POST, { id: postId, input: { content: v } }, who.token),
    },
    { field: 'text', send: (app, who, v) => app.gql(ADD_COMMENT, { postId, text: v }, who.token) },
  ];

  /** Rows of every table the mutations above may write, to show that a refusal wrote none. */
  const snapshot = async () => ({
    posts: await t.dataSource.query('SELECT id, title, content FROM posts ORDER BY id'),
    comments: await t.dataSource.query('SELECT id, text FROM comments ORDER BY id'),
    users: await t.dataSource.query('SELECT id, name, handle FROM users ORDER BY id'),
  });

  const refused = async (kase: Case, value: string, rule: RegExp) => {
    const before = await snapshot();
    const response = await kase.send(t, user, value);
    expect(response.data?.[Object.keys(response.data ?? {})[0]] ?? null).toBeNull();
    expect(response.errors?.[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', field: kase.field },
    });
    expect(response.errors?.[0].message).toMatch(rule);
    expect(await snapshot()).toEqual(before);
  };

  describe.each(Object.entries(INVISIBLE))('made only of %s', (_name, value) => {
    it.each([...lines, ...texts].map((kase) => [kase.field, kase]))(
      'should refuse %s with BAD_USER_INPUT',
      async (_field, kase) =>
        refused(kase as Case, ` ${value} `, /must contain visible characters/),
    );
  });

  describe.each(Object.entries(CONTROLS))('carrying %s', (_name, value) => {
    it.each([...lines, ...texts].map((kase) => [kase.field, kase]))(
      'should refuse %s with BAD_USER_INPUT',
      async (_field, kase) =>
        refused(kase as Case, value, /may not contain (control characters|lone surrogates)/),
    );
  });

  describe.each(Object.entries(ONE_LINE_ONLY))('carrying %s', (_name, value) => {
    it.each(lines.map((kase) => [kase.field, kase]))(
      'should refuse %s, which is one line',
      async (_field, kase) =>
        refused(kase as Case, value, /may not contain (control|bidirectional control) characters/),
    );
  });

  it('should keep line breaks, tabs and bidirectional isolates in content and comments', async () => {
    const content = 'First line\n\tindented\r\nمرحبا \u2067abc\u2069 done';
    const { createPost: post } = await t.data(
      CREATE_POST,
      { input: { title: 'Multi-line', content } },
      user.token,
    );
    const stored = await t.dataSource.query(`SELECT content FROM posts WHERE id = '${post.id}'`);
    expect(stored[0].content).toBe(content);
    const { addComment } = await t.data(
      ADD_COMMENT,
      { postId, text: 'One\nTwo\tThree' },
      user.token,
    );
    expect(addComment.text).toBe('One\nTwo\tThree');
  });

  it('should accept visible text in any script, with emoji joined by zero-width joiners', async () => {
    const title = 'Famille 👨\u200D👩\u200D👧 — 한글, ไทย, हिन्दी, Zoë';
    const { createPost: post } = await t.data(
      CREATE_POST,
      { input: { title, content: 'ok' } },
      user.token,
    );
    expect(post.title ?? title).toBe(title);
    const { updateProfile } = await t.data(
      UPDATE_PROFILE,
      { input: { name: 'Ada 🚀' } },
      user.token,
    );
    expect(updateProfile.name).toBe('Ada 🚀');
  });

  it('should refuse handles made of invisible characters, which the handle rule never matches', async () => {
    const before = await snapshot();
    for (const handle of ['\u3164\u3164\u3164', '\u200Babc', 'abc\u2800']) {
      const response = await t.gql(UPDATE_PROFILE, { input: { handle } }, user.token);
      expect(response.errors?.[0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        field: 'input.handle',
      });
    }
    expect(await snapshot()).toEqual(before);
  });
});
