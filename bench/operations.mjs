/**
 * The measured operations, as GraphQL requests. `graphqlOperations` serve our service and the
 * plain Apollo baseline (the same schema); `postgraphileOperations` and `postgraphile5Operations`
 * are the equivalent requests in PostGraphile 4's and 5's own schemas (see
 * bench/peers/postgraphile-api.sql for the functions they need).
 *
 * Reads are anonymous except Q2 (the viewer's feed). Writes are signed in as the bench writer,
 * a user that none of the reads look at, so they never change a read's response. P1 (issue 64)
 * runs last, after the writes, so that the six operations before it run as they always did.
 */

export const OPERATION_IDS = ['Q1', 'Q2', 'Q3', 'Q4', 'W1', 'W2', 'P1'];

/** The reads: their answers are compared with ours (see the report's "Same answers"). */
export const READ_OPERATION_IDS = ['Q1', 'Q2', 'Q3', 'Q4', 'P1'];

export const OPERATION_TITLES = {
  Q1: 'post(id) with its author',
  Q2: 'feed(first: 20), signed in',
  Q3: 'users(first: 20) { posts(first: 10) { title author } }',
  Q4: 'post detail with comments(first: 20)',
  W1: 'createPost, signed in',
  W2: 'likePost / unlikePost alternating, signed in',
  P1: 'post page: postBySlug with HTML, toc, author, tags, comments(first: 10) with textHtml and authors',
};

const body = (query, variables) => JSON.stringify({ query, variables });

/**
 * The fixed tiny query of the cold start (the time from the spawn to its first answer), in
 * each schema's words: the first post and its id.
 */
export const COLD_START_QUERIES = {
  graphql: '{ posts(first: 1) { id } }',
  postgraphile: '{ allPosts(first: 1) { nodes { id } } }',
  postgraphile5: '{ posts(first: 1) { nodes { rowId } } }',
};

/**
 * @returns one entry per operation: `kind` read or write, `as` the user it signs in as
 * (viewer, writer or null) and `bodies` the request bodies sent in turn by each connection.
 */
export function graphqlOperations(fixtures) {
  return [
    {
      id: 'Q1',
      kind: 'read',
      as: null,
      bodies: [
        body(
          'query Q1($id: ID!) { post(id: $id) { id title content createdAt author { id name handle avatar } } }',
          { id: fixtures.q1PostId },
        ),
      ],
    },
    {
      id: 'Q2',
      kind: 'read',
      as: 'viewer',
      bodies: [
        body(
          'query Q2 { feed(first: 20) { id content createdAt author { name handle avatar } likesCount isLikedByMe } }',
        ),
      ],
    },
    {
      id: 'Q3',
      kind: 'read',
      as: null,
      bodies: [
        body('query Q3 { users(first: 20) { posts(first: 10) { title author { name } } } }'),
      ],
    },
    {
      id: 'Q4',
      kind: 'read',
      as: null,
      bodies: [
        body(
          'query Q4($id: ID!) { post(id: $id) { title content author { name avatar } comments(first: 20) { text createdAt } } }',
          { id: fixtures.q4PostId },
        ),
      ],
    },
    {
      id: 'W1',
      kind: 'write',
      as: 'writer',
      bodies: [
        body(
          'mutation W1($input: CreatePostInput!) { createPost(input: $input) { id title publishedAt } }',
          { input: { title: 'A benchmark post', content: BENCH_POST_CONTENT } },
        ),
      ],
    },
    {
      id: 'W2',
      kind: 'write',
      as: 'writer',
      bodies: [
        body('mutation W2like($id: ID!) { likePost(postId: $id) { id likesCount isLikedByMe } }', {
          id: fixtures.w2PostId,
        }),
        body(
          'mutation W2unlike($id: ID!) { unlikePost(postId: $id) { id likesCount isLikedByMe } }',
          { id: fixtures.w2PostId },
        ),
      ],
    },
    {
      id: 'P1',
      kind: 'read',
      as: null,
      bodies: [
        body(
          'query P1($slug: String!) { postBySlug(slug: $slug) { id slug title publishedAt readingTimeMinutes contentHtml toc { id level title } author { name handle avatar } tags comments(first: 10) { textHtml createdAt author { name handle avatar } } } }',
          { slug: fixtures.p1Slug },
        ),
      ],
    },
  ];
}

/**
 * The same operations in PostGraphile 4's generated schema (default inflection: postById,
 * allUsers, userByAuthorId, commentsByPostId, connections with `nodes`), plus the functions of
 * postgraphile-api.sql where the tables alone cannot express the operation: `feed` (the
 * viewer from the JWT), `User.publishedPosts` (drafts excluded), `Post.isLikedByMe`, the
 * mutations `writePost`, `likePost`, `unlikePost` (author and liker from the JWT, idempotent),
 * and for P1 `postBySlug` (through post_slugs, as ours), `Post.toc` (a connection over the stored
 * JSON) and `Post.readingTimeMinutes` (from the stored word count).
 */
export function postgraphileOperations(fixtures) {
  return [
    {
      id: 'Q1',
      kind: 'read',
      as: null,
      bodies: [
        body(
          'query Q1($id: String!) { postById(id: $id) { id title content createdAt userByAuthorId { id name handle avatar } } }',
          { id: fixtures.q1PostId },
        ),
      ],
    },
    {
      id: 'Q2',
      kind: 'read',
      as: 'viewer',
      bodies: [
        body(
          'query Q2 { feed(first: 20) { nodes { id content createdAt userByAuthorId { name handle avatar } likesByPostId { totalCount } isLikedByMe } } }',
        ),
      ],
    },
    {
      id: 'Q3',
      kind: 'read',
      as: null,
      bodies: [
        body(
          'query Q3 { allUsers(first: 20, orderBy: ID_ASC) { nodes { publishedPosts(first: 10) { nodes { title userByAuthorId { name } } } } } }',
        ),
      ],
    },
    {
      id: 'Q4',
      kind: 'read',
      as: null,
      bodies: [
        body(
          'query Q4($id: String!) { postById(id: $id) { title content userByAuthorId { name avatar } commentsByPostId(first: 20, orderBy: ID_ASC) { nodes { text createdAt } } } }',
          { id: fixtures.q4PostId },
        ),
      ],
    },
    {
      id: 'W1',
      kind: 'write',
      as: 'writer',
      bodies: [
        body(
          'mutation W1($title: String!, $content: String!) { writePost(input: { title: $title, content: $content }) { post { id title publishedAt } } }',
          { title: 'A benchmark post', content: BENCH_POST_CONTENT },
        ),
      ],
    },
    {
      id: 'W2',
      kind: 'write',
      as: 'writer',
      bodies: [
        body(
          'mutation W2like($id: String!) { likePost(input: { postId: $id }) { post { id likesByPostId { totalCount } isLikedByMe } } }',
          { id: fixtures.w2PostId },
        ),
        body(
          'mutation W2unlike($id: String!) { unlikePost(input: { postId: $id }) { post { id likesByPostId { totalCount } isLikedByMe } } }',
          { id: fixtures.w2PostId },
        ),
      ],
    },
    {
      id: 'P1',
      kind: 'read',
      as: null,
      bodies: [
        body(
          'query P1($slug: String!) { postBySlug(slug: $slug) { id slug title publishedAt readingTimeMinutes contentHtml toc { nodes { id level title } } userByAuthorId { name handle avatar } postTagsByPostId(orderBy: POSITION_ASC) { nodes { slug } } commentsByPostId(first: 10, orderBy: ID_ASC) { nodes { textHtml createdAt userByAuthorId { name handle avatar } } } } }',
          { slug: fixtures.p1Slug },
        ),
      ],
    },
  ];
}

/**
 * The same operations in PostGraphile 5's schema with the Amber preset and the simplified
 * inflection (post, users, author, comments, likes; a table's own `id` is `rowId`, since `id`
 * is the Node interface's global id, and so is a toc entry's; connections with `nodes`; a
 * custom mutation's row is `result`; a post's tags are `postTags`), over the same functions as
 * PostGraphile 4.
 */
export function postgraphile5Operations(fixtures) {
  return [
    {
      id: 'Q1',
      kind: 'read',
      as: null,
      bodies: [
        body(
          'query Q1($id: String!) { post(rowId: $id) { rowId title content createdAt author { rowId name handle avatar } } }',
          { id: fixtures.q1PostId },
        ),
      ],
    },
    {
      id: 'Q2',
      kind: 'read',
      as: 'viewer',
      bodies: [
        body(
          'query Q2 { feed(first: 20) { nodes { rowId content createdAt author { name handle avatar } likes { totalCount } isLikedByMe } } }',
        ),
      ],
    },
    {
      id: 'Q3',
      kind: 'read',
      as: null,
      bodies: [
        body(
          'query Q3 { users(first: 20, orderBy: ROW_ID_ASC) { nodes { publishedPosts(first: 10) { nodes { title author { name } } } } } }',
        ),
      ],
    },
    {
      id: 'Q4',
      kind: 'read',
      as: null,
      bodies: [
        body(
          'query Q4($id: String!) { post(rowId: $id) { title content author { name avatar } comments(first: 20, orderBy: ROW_ID_ASC) { nodes { text createdAt } } } }',
          { id: fixtures.q4PostId },
        ),
      ],
    },
    {
      id: 'W1',
      kind: 'write',
      as: 'writer',
      bodies: [
        body(
          'mutation W1($title: String!, $content: String!) { writePost(input: { title: $title, content: $content }) { result { rowId title publishedAt } } }',
          { title: 'A benchmark post', content: BENCH_POST_CONTENT },
        ),
      ],
    },
    {
      id: 'W2',
      kind: 'write',
      as: 'writer',
      bodies: [
        body(
          'mutation W2like($id: String!) { likePost(input: { postId: $id }) { result { rowId likes { totalCount } isLikedByMe } } }',
          { id: fixtures.w2PostId },
        ),
        body(
          'mutation W2unlike($id: String!) { unlikePost(input: { postId: $id }) { result { rowId likes { totalCount } isLikedByMe } } }',
          { id: fixtures.w2PostId },
        ),
      ],
    },
    {
      id: 'P1',
      kind: 'read',
      as: null,
      bodies: [
        body(
          'query P1($slug: String!) { postBySlug(slug: $slug) { rowId slug title publishedAt readingTimeMinutes contentHtml toc { nodes { rowId level title } } author { name handle avatar } postTags(orderBy: POSITION_ASC) { nodes { slug } } comments(first: 10, orderBy: ROW_ID_ASC) { nodes { textHtml createdAt author { name handle avatar } } } } }',
          { slug: fixtures.p1Slug },
        ),
      ],
    },
  ];
}

const BENCH_POST_CONTENT =
  'Written by the load benchmark. It measures how fast the service creates a post, ' +
  'with a body of a few hundred characters, like a short note on a real blog. ' +
  'Nothing here is read back by the measured queries.';
