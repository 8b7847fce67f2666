import { Logger } from '@nestjs/common';

import { TestApp } from './helpers/test-app';

describe('The /graphql endpoint (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('should answer POST with JSON', async () => {
    const response = await t.http.post('/graphql').send({ query: '{ users { id } }' }).expect(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.body).toEqual({ data: { users: [] } });
  });

  it('should answer a query over GET, as GraphQL over HTTP allows', async () => {
    const response = await t.http
      .get('/graphql')
      .query({ query: '{ posts { id } }' })
      .set('apollo-require-preflight', 'true')
      .expect(200);
    expect(response.body).toEqual({ data: { posts: [] } });
  });

  it('should refuse a mutation over GET', async () => {
    const response = await t.http
      .get('/graphql')
      .query({
        query: 'mutation { logIn(input: {email: "a@b.c", password: "12345678"}) { token } }',
      })
      .set('apollo-require-preflight', 'true');
    expect(response.status).toBe(405);
  });

  it('should serve no other API route', async () => {
    await t.http.get('/users').expect(404);
    await t.http.post('/api/v2/graphql').send({ query: '{ users { id } }' }).expect(404);
  });

  it('should document itself through introspection', async () => {
    const { __type } = await t.data(
      `{ __type(name: "Post") { fields { name type { kind ofType { name } } } } }`,
    );
    const fields = Object.fromEntries(__type.fields.map((f: any) => [f.name, f.type]));
    expect(fields.author).toEqual({ kind: 'NON_NULL', ofType: { name: 'User' } });
    expect(fields.publishedAt).toEqual({ kind: 'SCALAR', ofType: null });
  });

  it('should answer GRAPHQL_PARSE_FAILED for a syntax error', async () => {
    const response = await t.gql('{ users { id ');
    expect(response.errors?.[0].extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('should answer GRAPHQL_VALIDATION_FAILED for an unknown field', async () => {
    const response = await t.gql('{ users { password } }');
    expect(response.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('should answer BAD_USER_INPUT for a variable of the wrong type', async () => {
    const response = await t.gql('query ($id: ID!) { post(id: $id) { id } }', {
      id: { not: 'an id' },
    });
    expect(response.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('should not log client errors as server errors', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      await t.gql('{ users(first: 1000) { id } }');
      await t.gql('{ me { id } }', {}, 'Bearer forged');
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it('should give every error a code and no stack trace', async () => {
    const response = await t.gql('{ users(first: 1000) { id } }');
    expect(response.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'first' });
    expect(JSON.stringify(response)).not.toMatch(/stacktrace|at .*\.ts:\d+/);
  });

  describe('an unexpected failure', () => {
    let logged: jest.SpyInstance;

    beforeAll(async () => {
      logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      await t.dataSource.query('ALTER TABLE posts RENAME TO posts_gone');
    });
    afterAll(async () => {
      await t.dataSource.query('ALTER TABLE posts_gone RENAME TO posts');
      logged.mockRestore();
    });

    it('should reach the client as INTERNAL_SERVER_ERROR with a generic message, the SQL hidden', async () => {
      const response = await t.gql('{ posts { id } }');
      expect(response.errors).toEqual([
        expect.objectContaining({
          message: 'Internal server error.',
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        }),
      ]);
      expect(JSON.stringify(response)).not.toMatch(/SELECT|no such table|does not exist|sqlite/i);
    });

    it('should be logged on the server with its stack', async () => {
      logged.mockClear();
      await t.gql('{ posts { id } }');
      const [message, stack] = logged.mock.calls[0] as [string, string];
      expect(message).toMatch(/no such table|does not exist/);
      expect(stack).toMatch(/QueryFailedError/);
    });
  });
});
