import { EXECUTIONS, fastPathDifferences, onPath } from './harness';
import { Comment } from '../../src/blog';
import { newId } from '../../src/blog/common/uuid';
import { PostDetailReader } from '../../src/blog/posts/post-detail-reader';
import { ADD_COMMENT, CREATE_POST, MISSING_ID, POST_DETAIL_QUERY } from '../helpers/documents';
import { TestApp, TestUser } from '../helpers/test-app';

/**
 * The post read with its author and first page of comments in one statement (PostDetailReader)
 * is a faster path: every document here goes to the service with it and without it (the post,
 * then the comments from their loader), on the same database, and any difference in status,
 * data or errors fails. On graphql-js and on compiled execution, which builds its own `info`.
 */

type Who = 'anonymous' | 'writer' | 'other' | 'admin';
type Line = [name: string, query: string, variables?: Record<string, unknown>, who?: Who];

const DETAIL = `query ($id: ID!) { post(id: $id) { id title content author { name avatar } comments(first: 20) { id text createdAt } } }`;
const PAGE = `query ($id: ID!, $n: Int) { post(id: $id) { id comments(first: $n) { id text createdAt authorId: author { id } } } }`;

/** The documents, for posts made in beforeAll: `ids` names them. */
function lines(ids: Record<'many' | 'few' | 'none' | 'draft' | 'comment', string>): Line[] {
  const { many, few, none, draft, comment } = ids;
  const each = (name: string, query: string, variables: Record<string, unknown> = {}): Line[] =>
    (['anonymous', 'writer', 'other', 'admin'] as Who[]).flatMap((who) => [
      [`${name}, many comments, ${who}`, query, { ...variables, id: many }, who],
      [`${name}, a few, ${who}`, query, { ...variables, id: few }, who],
      [`${name}, none, ${who}`, query, { ...variables, id: none }, who],
      [`${name}, a draft with comments, ${who}`, query, { ...variables, id: draft }, who],
    ]);
  return [
    ...each("the specification's post detail", POST_DETAIL_QUERY),
    ...each('the post detail of the benchmark', DETAIL),
    ...each('a page of 5', PAGE, { n: 5 }),
    ...each('the default page', PAGE),
    ...each('a null page size', PAGE, { n: null }),
    ...each('an empty page', PAGE, { n: 0 }),
    ...each('the largest page', PAGE, { n: 100 }),
    ...each('a page too large', PAGE, { n: 101 }),
    ...each('a negative page', PAGE, { n: -1 }),
    ...each(
      'comments without the author',
      'query ($id: ID!) { post(id: $id) { comments { id post { id title } } } }',
    ),
    ...each(
      'two pages under aliases',
      'query ($id: ID!) { post(id: $id) { a: comments(first: 2) { id } b: comments(first: 30) { id text } } }',
    ),
    ...each(
      'the page in a named fragment',
      'query ($id: ID!) { post(id: $id) { ...P } } fragment P on Post { title comments(first: 4) { id author { name } } }',
    ),
    ...each(
      'the page in an inline fragment',
      'query ($id: ID!) { post(id: $id) { ... on Post { comments(first: 3) { text } } author { handle } } }',
    ),
    ...each(
      'a skipped page',
      'query ($id: ID!) { post(id: $id) { id comments(first: 3) @skip(if: true) { id } } }',
    ),
    ...each(
      'a page left out by a variable',
      'query ($id: ID!, $on: Boolean!) { post(id: $id) { id comments(first: 3) @include(if: $on) { id } } }',
      { on: false },
    ),
    ...each(
      "the same page of the author's posts",
      'query ($id: ID!) { post(id: $id) { comments(first: 2) { id } author { posts(first: 5) { id comments(first: 2) { id text } } } } }',
    ),
    ...each(
      'counts beside the page',
      'query ($id: ID!) { post(id: $id) { commentsCount likesCount isLikedByMe comments(first: 3) { id } } }',
    ),
    ...each(
      'a page after a comment',
      `query ($id: ID!) { post(id: $id) { comments(first: 3, after: "${comment}") { id } } }`,
    ),
    [
      'two posts, each with its page',
      `{ a: post(id: "${many}") { comments(first: 2) { id } } b: post(id: "${few}") { comments(first: 2) { id } } c: post(id: "${MISSING_ID}") { comments { id } } }`,
    ],
    ['a missing post', DETAIL, { id: MISSING_ID }],
    ['not an id', DETAIL, { id: 'nope' }],
    ['an id in upper case', DETAIL, { id: many.toUpperCase() }],
    [
      'a page after something that is not an id',
      `{ post(id: "${many}") { comments(after: "nope") { id } } }`,
    ],
  ];
}

describe.each(EXECUTIONS)('A post read with its comments in one statement (%s)', (_, env) => {
  let t: TestApp;
  let reader: PostDetailReader;
  let tokens: Record<Who, string | undefined>;
  let corpus: Line[];
  let ids: { many: string };

  beforeAll(async () => {
    t = await TestApp.start({ env: { ...env, RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
    reader = t.app.get(PostDetailReader);
    const [writer, other, admin]: TestUser[] = [
      await t.signUp(),
      await t.signUp(),
      await t.signUp(),
    ];
    await t.makeAdmin(admin.user.id);
    tokens = { anonymous: undefined, writer: writer.token, other: other.token, admin: admin.token };
    const create = async (publish: boolean) =>
      (
        await t.data<{ createPost: { id: string } }>(
          CREATE_POST,
          { input: { title: 'A post', content: 'Its text', publish } },
          writer.token,
        )
      ).createPost.id;
    const [many, few, none, draft] = [
      await create(true),
      await create(true),
      await create(true),
      await create(false),
    ];
    const comments: string[] = [];
    for (let i = 0; i < 25; i++) {
      const by = i % 2 ? other : writer;
      const { addComment } = await t.data<{ addComment: { id: string } }>(
        ADD_COMMENT,
        { postId: many, text: `Comment ${i}` },
        by.token,
      );
      comments.push(addComment.id);
    }
    for (let i = 0; i < 3; i++) {
      await t.data(ADD_COMMENT, { postId: few, text: `Short ${i}` }, other.token);
    }
    // The API refuses comments on a draft: these go straight into the table, to check that a
    // draft's comments stay as hidden as the draft.
    await t.dataSource.getRepository(Comment).insert(
      [0, 1].map((i) => ({
        id: newId(),
        text: `On a draft ${i}`,
        postId: draft,
        authorId: other.user.id,
        createdAt: new Date(Date.now() + i),
      })),
    );
    ids = { many };
    corpus = lines({ many, few, none, draft, comment: comments[4] });
  });

  afterAll(() => t?.close());

  async function send(line: Line, plain: boolean) {
    const [, query, variables = {}, who = 'anonymous'] = line;
    return onPath(
      plain,
      () => jest.spyOn(reader, 'pageOf').mockReturnValue(null),
      async () => {
        const sent = await t.statements.during(() => t.reply(query, variables, tokens[who]));
        return { reply: sent.result, statements: sent.statements.length };
      },
    );
  }

  it('should answer every document as the plain path does', async () => {
    expect(corpus.length).toBeGreaterThan(80);
    expect(await fastPathDifferences(corpus, send)).toEqual([]);
  });

  it('should read the post, its author and its first page of comments in one statement', async () => {
    const line: Line = ['detail', DETAIL, { id: ids.many }];
    const plain = await send(line, true);
    const fast = await send(line, false);
    expect(fast.reply).toEqual(plain.reply);
    const post = (fast.reply.body as { data: { post: { comments: unknown[] } } }).data.post;
    expect(post.comments).toHaveLength(20);
    expect(plain.statements).toBe(2);
    expect(fast.statements).toBe(1);
  });

  it('should keep a draft and its comments from everyone but its author and admins', async () => {
    const draftLines = corpus.filter(([name]) =>
      name.startsWith('the post detail of the benchmark, a draft'),
    );
    const seen = Object.fromEntries(
      await Promise.all(
        draftLines.map(async (line) => {
          const { reply } = await send(line, false);
          const post = (reply.body as { data: { post: { comments: unknown[] } | null } }).data.post;
          return [line[3], post ? post.comments.length : null];
        }),
      ),
    );
    expect(seen).toEqual({ anonymous: null, other: null, writer: 2, admin: 2 });
  });
});
