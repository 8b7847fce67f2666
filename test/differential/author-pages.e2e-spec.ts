import { EXECUTIONS, fastPathDifferences, onPath, sixPostsByThree } from './harness';
import { PostsService } from '../../src/blog/posts/posts.service';
import {
  ADD_COMMENT,
  CREATE_POST,
  LIKE_POST,
  MISSING_ID,
  PROFILE_QUERY,
} from '../helpers/documents';
import { TestApp } from '../helpers/test-app';

/**
 * An author's page of posts whose selection reads none of their content (FIELDS_WITHOUT_CONTENT)
 * is read without it: a faster path. Every document here goes to the service with it and without
 * it (the page read whole, as before), on the same database, and any difference in status, data
 * or errors fails. On graphql-js and on compiled execution, which builds its own `info`.
 */

type Who = 'anonymous' | 'writer' | 'reader';
type Line = [name: string, query: string, variables?: Record<string, unknown>, who?: Who];

/** The benchmark's Q3. */
const Q3 = '{ users(first: 20) { posts(first: 10) { title author { name } } } }';
const EVERY_FIELD =
  '__typename id title createdAt updatedAt publishedAt likesCount commentsCount isLikedByMe ' +
  'isBookmarkedByMe tags author { id name }';

/** The documents, for the users and posts made in beforeAll: `ids` names them. */
function lines(ids: { writer: string; second: string }): Line[] {
  const { writer, second } = ids;
  const each = (name: string, query: string, variables: Record<string, unknown> = {}): Line[] =>
    (['anonymous', 'writer', 'reader'] as Who[]).map((who) => [
      `${name}, ${who}`,
      query,
      { ...variables, id: writer },
      who,
    ]);
  return [
    ...each("the benchmark's users with their posts", Q3),
    ...each("the specification's profile", PROFILE_QUERY),
    ...each(
      'every other field of a post',
      `{ users(first: 5) { id posts(first: 4) { ${EVERY_FIELD} } } }`,
    ),
    ...each(
      'one user, a page after a post',
      'query ($id: ID!, $after: ID) { user(id: $id) { posts(first: 2, after: $after) { id title } } }',
      { after: second },
    ),
    ...each(
      'a page after something that is not an id',
      'query ($id: ID!) { user(id: $id) { posts(after: "nope") { id } } }',
    ),
    ...each('an empty page', 'query ($id: ID!) { user(id: $id) { posts(first: 0) { id } } }'),
    ...each('a negative page', 'query ($id: ID!) { user(id: $id) { posts(first: -1) { id } } }'),
    ...each('a page too large', 'query ($id: ID!) { user(id: $id) { posts(first: 101) { id } } }'),
    ...each(
      'a missing user',
      `{ user(id: "${MISSING_ID}") { posts { id title } } users(first: 1) { id } }`,
    ),
    ...each(
      'named and inline fragments',
      '{ users(first: 5) { posts(first: 3) { ...P ... on Post { publishedAt } } } } ' +
        'fragment P on Post { __typename id ...Q } fragment Q on Post { title likesCount }',
    ),
    ...each(
      'the content in a fragment',
      '{ users(first: 5) { posts(first: 3) { ...P } } } fragment P on Post { id content }',
    ),
    ...each(
      'two aliases of the page, one with the content',
      '{ users(first: 3) { a: posts(first: 2) { id title } b: posts(first: 3) { id content } } }',
    ),
    ...each(
      'the same page twice, once with the content',
      '{ users(first: 3) { posts(first: 2) { id title } posts(first: 2) { content } } }',
    ),
    ...each(
      'a skipped content',
      '{ users(first: 3) { posts(first: 2) { id content @skip(if: true) } } }',
    ),
    ...each(
      'a content left out by a variable',
      'query ($on: Boolean!) { users(first: 3) { posts(first: 2) { id content @include(if: $on) } } }',
      { on: false },
    ),
    ...each(
      "the posts' comments and their posts",
      '{ users(first: 5) { posts(first: 3) { id comments(first: 3) { text post { id title content } } } } }',
    ),
    ...each(
      "the authors' own pages",
      '{ users(first: 5) { posts(first: 2) { title author { posts(first: 1) { id title } } } } }',
    ),
    ...each(
      'pages beside the posts loaded by id',
      '{ users(first: 5) { posts(first: 4) { id title } } ' +
        'notifications(first: 5) { edges { node { post { id title content } } } } }',
    ),
  ];
}

describe.each(EXECUTIONS)("An author's page of posts read without content (%s)", (_, env) => {
  let t: TestApp;
  let posts: PostsService;
  let tokens: Record<Who, string | undefined>;
  let corpus: Line[];

  beforeAll(async () => {
    t = await TestApp.start({ env: { ...env, RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
    posts = t.app.get(PostsService);
    const { writer, reader, ids } = await sixPostsByThree(t, (n) => ({
      title: `Post ${n}`,
      content: `Text ${n} ${'é'.repeat(n)}`,
      tags: [`t${n % 2}`],
    }));
    tokens = { anonymous: undefined, writer: writer.token, reader: reader.token };
    await t.data(
      CREATE_POST,
      { input: { title: 'A draft', content: 'Hidden', publish: false } },
      writer.token,
    );
    // The writer's posts are commented on and liked by the reader, which notifies the writer.
    for (const id of [ids[0], ids[3], ids[5]]) {
      await t.data(ADD_COMMENT, { postId: id, text: `On ${id}` }, reader.token);
      await t.data(LIKE_POST, { postId: id }, reader.token);
    }
    corpus = lines({ writer: writer.user.id, second: ids[3] });
  });

  afterAll(() => t?.close());

  /** Sends `line`; `plain` reads every page whole, as before the faster path. */
  async function send(line: Line, plain: boolean) {
    const [, query, variables = {}, who = 'anonymous'] = line;
    const listByAuthors = posts.listByAuthors.bind(posts);
    const readWhole = () =>
      jest
        .spyOn(posts, 'listByAuthors')
        .mockImplementation((ids, page) => listByAuthors(ids, page));
    return onPath(plain, readWhole, async () => {
      const sent = await t.statements.during(() => t.reply(query, variables, tokens[who]));
      return { reply: sent.result, statements: sent.statements };
    });
  }

  it('should answer every document as the plain path does', async () => {
    expect(corpus.length).toBeGreaterThan(50);
    expect(await fastPathDifferences(corpus, send)).toEqual([]);
  });

  const readsContent = (statements: string[]) =>
    statements.some((text) => /\bp\.content\b/.test(text));

  it("should read no content for the benchmark's users with their posts", async () => {
    const line: Line = ['Q3', Q3];
    const plain = await send(line, true);
    const fast = await send(line, false);
    expect(fast.reply).toEqual(plain.reply);
    const body = fast.reply.body as { data: { users: { posts: unknown[] }[] } };
    expect(body.data.users.flatMap((u) => u.posts)).toHaveLength(6);
    expect(readsContent(plain.statements)).toBe(true);
    expect(readsContent(fast.statements)).toBe(false);
    expect(fast.statements).toHaveLength(2);
    expect(plain.statements).toHaveLength(2);
  });

  it('should read the content of a page whose selection needs it', async () => {
    // Including a content that @skip or @include leaves out: the selection still names it.
    const needing = corpus.filter(([name]) => /content|comments/.test(name));
    expect(needing.length).toBeGreaterThan(10);
    const unread: string[] = [];
    for (const line of needing) {
      if (!readsContent((await send(line, false)).statements)) unread.push(line[0]);
    }
    expect(unread).toEqual([]);
  });
});
