import { EXECUTIONS, fastPathDifferences, onPath, sixPostsByThree } from './harness';
import { LoaderCache } from '../../src/blog/common/loaders';
import { usersLoaders } from '../../src/blog/users/users.loaders';
import { UsersService } from '../../src/blog/users/users.service';
import { ADD_COMMENT, LIKE_POST, MISSING_ID } from '../helpers/documents';
import { TestApp } from '../helpers/test-app';

/**
 * A post's or a comment's author, and a notification's actor, are answered at once when the
 * request holds that user's row already (`knownUser`: the viewer, a list of users, a post read
 * with its author, a batch that has finished), without a promise each: a faster path. Every
 * document here goes to the service with it and without it (each user through the loader, as
 * before), on the same database, and any difference in status, data or errors fails. On
 * graphql-js and on compiled execution.
 */

type Who = 'anonymous' | 'writer' | 'reader';
type Line = [name: string, query: string, variables?: Record<string, unknown>, who?: Who];

/** The benchmark's Q3. */
const Q3 = '{ users(first: 20) { posts(first: 10) { title author { name } } } }';

/** The documents, for the users and posts made in beforeAll: `ids` names them. */
function lines(ids: { writer: string; post: string }): Line[] {
  const each = (name: string, query: string, variables: Record<string, unknown> = {}): Line[] =>
    (['anonymous', 'writer', 'reader'] as Who[]).map((who) => [
      `${name}, ${who}`,
      query,
      { ...variables, ...(query.includes('$id') ? { id: ids.writer } : {}) },
      who,
    ]);
  const post = { post: ids.post };
  return [
    ...each("the benchmark's users with their posts", Q3),
    ...each(
      "the authors' own pages and their authors",
      '{ users(first: 5) { id posts(first: 3) { title author { id name posts(first: 2) { title author { name handle } } } } } }',
    ),
    ...each(
      'a post with its author, read in one statement',
      'query ($post: ID!) { post(id: $post) { id title author { id name handle avatar } } }',
      post,
    ),
    ...each(
      'a post with its comments and their authors',
      'query ($post: ID!) { post(id: $post) { author { name } comments(first: 5) { text author { name } post { author { id } } } } }',
      post,
    ),
    ...each(
      "the newest posts, their authors read in a batch, and their comments' authors",
      '{ posts(first: 8) { title author { name } comments(first: 2) { text author { name handle } } } }',
    ),
    ...each(
      'a user read by id, then their posts',
      'query ($id: ID!) { user(id: $id) { name posts(first: 4) { title author { name } } } }',
    ),
    ...each(
      'the viewer and their posts',
      '{ me { name posts(first: 4) { title author { id } } } }',
    ),
    ...each('the feed', '{ feed(first: 6) { title author { name } } }'),
    ...each(
      'the notifications, their actors and posts',
      '{ notifications(first: 5) { edges { node { actor { id name } post { title author { name } } } } } }',
    ),
    ...each(
      'aliases and fragments of the author',
      '{ users(first: 3) { posts(first: 2) { a: author { name } b: author { id } ...F } } } ' +
        'fragment F on Post { author { handle ... on User { avatar } } }',
    ),
    ...each(
      'a missing post beside known authors',
      `{ post(id: "${MISSING_ID}") { author { name } } users(first: 2) { posts(first: 2) { author { name } } } }`,
    ),
    ...each(
      'a post created, with its author (the loaders are cleared after it)',
      'mutation { createPost(input: { title: "Once more", content: "The same" }) { title author { name } } }',
    ),
    ...each(
      "a comment added, with its author and its post's author",
      `mutation ($post: ID!) { addComment(postId: $post, text: "Again") { text author { name } post { author { name } } } }`,
      post,
    ),
  ];
}

describe.each(EXECUTIONS)('Users the request holds, answered at once (%s)', (_, env) => {
  let t: TestApp;
  let tokens: Record<Who, string | undefined>;
  let corpus: Line[];
  /** The users feature's loaders, which every request's loaders hand `knownUser` to. */
  const loadersPrototype = Object.getPrototypeOf(
    usersLoaders({} as UsersService, new LoaderCache(), null),
  ) as { knownUser(id: string): unknown };

  beforeAll(async () => {
    t = await TestApp.start({ env: { ...env, RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
    const { writer, reader, third, ids } = await sixPostsByThree(t, (n) => ({
      title: `Post ${n}`,
      content: `Text ${n}`,
    }));
    tokens = { anonymous: undefined, writer: writer.token, reader: reader.token };
    // Comments by every user on the writer's posts, and likes that notify the writer.
    for (const id of [ids[0], ids[3]]) {
      for (const user of [reader, third, writer]) {
        await t.data(ADD_COMMENT, { postId: id, text: `On ${id}` }, user.token);
      }
      await t.data(LIKE_POST, { postId: id }, reader.token);
    }
    corpus = lines({ writer: writer.user.id, post: ids[0] });
  });

  afterAll(() => t?.close());

  /** Sends `line`; `plain` answers every user through the loader, as before the faster path. */
  async function send(line: Line, plain: boolean) {
    const [, query, variables = {}, who = 'anonymous'] = line;
    return onPath(
      plain,
      () => jest.spyOn(loadersPrototype, 'knownUser').mockReturnValue(undefined),
      async () => ({ reply: await t.reply(query, variables, tokens[who]) }),
    );
  }

  it('should answer every document as the plain path does', async () => {
    expect(corpus.length).toBeGreaterThan(30);
    expect(await fastPathDifferences(corpus, send)).toEqual([]);
  });

  it("should answer the benchmark's authors at once, and only through the loader on the plain path", async () => {
    const known = jest.spyOn(loadersPrototype, 'knownUser');
    let authors = 0;
    try {
      const { reply } = await send(['Q3', Q3], false);
      const body = reply.body as { data: { users: { posts: { author: unknown }[] }[] } };
      authors = body.data.users.flatMap((user) => user.posts).length;
      expect(authors).toBeGreaterThanOrEqual(6);
      expect(known.mock.results.filter((result) => result.value !== undefined)).toHaveLength(
        authors,
      );
    } finally {
      known.mockRestore();
    }
    expect((await send(['Q3', Q3], true)).spied).toBe(authors);
  });
});
