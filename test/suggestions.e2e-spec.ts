import { TestApp, TestUser } from './helpers/test-app';
import { collect, wsClient } from './helpers/ws-client';

const CREATE = `mutation ($input: CreatePostInput!) { createPost(input: $input) { id } }`;

/**
 * "Did you mean …?" names fields, types and arguments of the schema. Where introspection is off
 * (production) no error carries one: validation errors, and the errors of variables whose values
 * do not fit their types, on HTTP and on the WebSocket. Development keeps them, which shows that
 * the requests below would carry one.
 */
describe.each([
  ['development', true],
  ['production', false],
])('Schema suggestions in %s (e2e)', (nodeEnv, suggests) => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await TestApp.start({ env: { NODE_ENV: nodeEnv } });
    user = await t.signUp();
  });
  afterAll(() => t.close());

  const suggestion = (message: string | undefined) => /Did you mean/.test(message ?? '');

  it(`should ${suggests ? '' : 'not '}suggest a field of an input in a variable's value`, async () => {
    const response = await t.gql(
      CREATE,
      { input: { title: 'T', content: 'C', publsh: true } },
      user.token,
    );
    expect(response.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(response.errors?.[0].message).toContain('"publsh" is not defined');
    expect(suggestion(response.errors?.[0].message)).toBe(suggests);
    expect(await t.dataSource.query('SELECT id FROM posts')).toEqual([]);
  });

  it(`should ${suggests ? '' : 'not '}suggest fields, arguments or types in validation errors`, async () => {
    const documents = [
      `{ postz { id } }`,
      `{ posts(frist: 1) { id } }`,
      `query ($id: ID!) { post(id: $id) { ... on Pots { id } } }`,
      `mutation { createPost(input: { titl: "T", content: "C" }) { id } }`,
    ];
    for (const document of documents) {
      const response = await t.gql(document, { id: '1' }, user.token);
      expect(response.errors?.length).toBeGreaterThan(0);
      expect(response.errors!.some((error) => suggestion(error.message))).toBe(suggests);
    }
  });

  it(`should ${suggests ? '' : 'not '}suggest over the WebSocket`, async () => {
    const { client } = wsClient((await t.listen()).ws);
    try {
      const [result] = await collect(
        client,
        `subscription ($postId: ID!) { commentAdded(postId: $postId) { txt } }`,
        { postId: '1' },
      ).next(1);
      expect(result.errors?.[0].message).toContain('"txt"');
      expect(suggestion(result.errors?.[0].message)).toBe(suggests);
    } finally {
      await client.dispose();
    }
  });
});
