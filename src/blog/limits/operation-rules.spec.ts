import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLError,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
} from 'graphql';

import { BlogModuleOptions } from '../blog-options.interface';
import { expensive, POSTS_SCAN_WORK } from './expensive-fields';
import { costKeyOf } from './operation-cost';
import { documentKeyOf, OperationRules } from './operation-rules';
import { SOLE_ROOT_FIELD } from './sole-root-field';

const page = { first: { type: GraphQLInt, defaultValue: 20 } };

const Comment = new GraphQLObjectType({
  name: 'Comment',
  fields: { id: { type: new GraphQLNonNull(GraphQLID) }, text: { type: GraphQLString } },
});
const Post = new GraphQLObjectType({
  name: 'Post',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLID) },
    title: { type: GraphQLString },
    content: { type: GraphQLString },
    comments: { type: new GraphQLNonNull(new GraphQLList(Comment)), args: page },
  },
});
const PostConnection = new GraphQLObjectType({
  name: 'PostConnection',
  fields: { nodes: { type: new GraphQLList(Post) }, cursor: { type: GraphQLString } },
});
const alone = { [SOLE_ROOT_FIELD]: true };
/** An enum whose internal values are not its names, as code-first enums may have. */
const Order = new GraphQLEnumType({
  name: 'Order',
  values: { OLDEST: { value: 'oldest' }, NEWEST: { value: 'newest' } },
});

/** A small schema of the blog's shape: paged lists, a connection, and account mutations. */
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      posts: {
        type: new GraphQLNonNull(new GraphQLList(Post)),
        args: { ...page, order: { type: Order } },
      },
      postsConnection: { type: PostConnection, args: page },
    },
  }),
  mutation: new GraphQLObjectType({
    name: 'Mutation',
    fields: {
      logOutEverywhere: { type: GraphQLBoolean, extensions: alone },
      deleteAccount: {
        type: GraphQLID,
        args: { password: { type: GraphQLString } },
        extensions: alone,
      },
      createPost: { type: Post, args: { title: { type: GraphQLString } } },
      likePost: { type: Post },
    },
  }),
});

function rulesWith(maxQueryComplexity: number): OperationRules {
  return new OperationRules({
    jwtSecret: 'unused',
    maxQueryComplexity,
    documentLimits: { maxAliases: 1000, maxDepth: 100 },
  } as BlogModuleOptions);
}

/** What `rules.check` throws for `query`, or null when it lets the operation run. */
function refusalOf(
  rules: OperationRules,
  query: string,
  operationName?: string,
  variables: Record<string, unknown> = {},
): GraphQLError | null {
  try {
    rules.check(schema, parse(query), documentKeyOf(query), operationName, variables);
    return null;
  } catch (error) {
    if (error instanceof GraphQLError) return error;
    throw error;
  }
}

/** The cost the rules estimate for `query`: with a limit of 0 every operation is refused with it. */
function costOf(query: string): number {
  const error = refusalOf(rulesWith(0), query);
  expect(error?.extensions).toMatchObject({ limit: 'complexity' });
  return error?.extensions.complexity as number;
}

const aliases = (count: number, selection: string) =>
  Array.from({ length: count }, (_, i) => `a${i}: ${selection}`).join(' ');

describe('OperationRules: cost', () => {
  it('should charge a list its selection even at first: 0', () => {
    expect(costOf('{ posts(first: 0) { id title content } }')).toBe(1 + 3);
    expect(costOf('{ posts(first: 0) { id title content } }')).toBe(
      costOf('{ posts(first: 1) { id title content } }'),
    );
    expect(costOf('{ posts(first: 0) { id comments(first: 0) { id text } } }')).toBe(
      1 + (1 + (1 + 2)),
    );
  });

  it('should charge a list its page size times its selection', () => {
    expect(costOf('{ posts(first: 10) { id title } }')).toBe(1 + 10 * 2);
    expect(costOf('{ posts { id title } }')).toBe(1 + 20 * 2);
  });

  it('should price an enum variable whose internal value is not its name', () => {
    const query = 'query ($order: Order) { posts(first: 2, order: $order) { id } }';
    for (const order of ['OLDEST', 'NEWEST']) {
      expect(refusalOf(rulesWith(100), query, undefined, { order })).toBeNull();
    }
    expect(
      refusalOf(rulesWith(100), query, undefined, { order: 'oldest' })?.extensions,
    ).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('should charge a connection its selection at least once, as before', () => {
    expect(costOf('{ postsConnection(first: 0) { cursor } }')).toBe(1 + 1);
  });

  it('should refuse aliases of an empty page that each select a big fragment', () => {
    const fragment = `fragment F on Post { ${aliases(20, 'title')} comments(first: 5) { id text } }`;
    const query = `{ ${aliases(40, 'posts(first: 0) { ...F }')} } ${fragment}`;
    // Each alias costs 1 + (20 + 1 + 5 * 2) = 32: the whole 1,280, no longer 40.
    expect(costOf(query)).toBe(40 * 32);
    const refused = refusalOf(rulesWith(1000), query);
    expect(refused?.extensions).toMatchObject({
      code: 'GRAPHQL_VALIDATION_FAILED',
      limit: 'complexity',
      http: { status: 400 },
    });
  });
});

describe('OperationRules: costs remembered', () => {
  const query = 'query Page($first: Int, $tag: String) { posts(first: $first) { id title } }';
  const costWith = (rules: OperationRules, variables: Record<string, unknown>) =>
    refusalOf(rules, query, undefined, variables)?.extensions.complexity;

  it('should remember a cost per variable values, short and long alike', () => {
    const rules = rulesWith(0);
    const long = 'x'.repeat(600);
    for (let round = 0; round < 2; round++) {
      expect(costWith(rules, { first: 5 })).toBe(1 + 5 * 2);
      expect(costWith(rules, { first: 7 })).toBe(1 + 7 * 2);
      expect(costWith(rules, { first: 5, tag: long })).toBe(1 + 5 * 2);
      expect(costWith(rules, { first: 9, tag: long })).toBe(1 + 9 * 2);
    }
  });

  it('should keep a short key as it is and a long one as its hash, never the same', () => {
    const key = documentKeyOf(query);
    expect(costKeyOf(key, 'Page', { first: 5 })).toBe(`${key}\0Page\0{"first":5}`);
    const hashed = costKeyOf(key, 'Page', { first: 5, tag: 'x'.repeat(600) });
    expect(hashed).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(costKeyOf(key, 'Page', { first: 5, tag: 'y'.repeat(600) })).not.toBe(hashed);
    expect(costKeyOf(key, 'Other', { first: 5 })).not.toBe(costKeyOf(key, 'Page', { first: 5 }));
  });
});

describe('OperationRules: the same variables object sent again', () => {
  const query = 'query Page($first: Int) { posts(first: $first) { id title } }';
  const document = parse(query);
  const costIn = (rules: OperationRules, variables: Record<string, unknown>, request: object) => {
    try {
      rules.check(schema, document, documentKeyOf(query), undefined, variables, request);
      return null;
    } catch (error) {
      return (error as GraphQLError).extensions.complexity;
    }
  };

  it('should check each request on the values it holds then', () => {
    const rules = rulesWith(100);
    const variables = { first: 5 };
    expect(costIn(rules, variables, { variables })).toBeNull();
    variables.first = 500;
    expect(costIn(rules, variables, { variables })).toBe(1 + 500 * 2);
  });
});

describe('OperationRules: account mutations stand alone', () => {
  const rules = rulesWith(10_000);
  const expectRefused = (query: string, operationName?: string) => {
    const error = refusalOf(rules, query, operationName);
    expect(error?.extensions).toEqual({ code: 'BAD_REQUEST', http: { status: 400 } });
    expect(error?.message).toMatch(/^(logOutEverywhere|deleteAccount) must be the only field/);
  };

  it('should let logOutEverywhere and deleteAccount run alone, aliased or repeated under one name', () => {
    expect(refusalOf(rules, 'mutation { logOutEverywhere }')).toBeNull();
    expect(refusalOf(rules, 'mutation { bye: deleteAccount(password: "p") }')).toBeNull();
    expect(refusalOf(rules, 'mutation { logOutEverywhere logOutEverywhere }')).toBeNull();
    expect(
      refusalOf(rules, 'mutation { ...F } fragment F on Mutation { logOutEverywhere }'),
    ).toBeNull();
  });

  it.each([
    ['a write after it', 'mutation { logOutEverywhere b: createPost(title: "t") { id } }'],
    [
      'a write before it',
      'mutation { createPost(title: "t") { id } deleteAccount(password: "p") }',
    ],
    ['__typename beside it', 'mutation { logOutEverywhere __typename }'],
    ['itself under two aliases', 'mutation { a: logOutEverywhere b: logOutEverywhere }'],
    ['another one of them', 'mutation { logOutEverywhere deleteAccount(password: "p") }'],
    [
      'a write in a fragment',
      'mutation { deleteAccount(password: "p") ...W } fragment W on Mutation { likePost { id } }',
    ],
    [
      'itself in a fragment, a write outside',
      'mutation { ...D createPost { id } } fragment D on Mutation { deleteAccount(password: "p") }',
    ],
    [
      'a write in an inline fragment',
      'mutation { logOutEverywhere ... on Mutation { likePost { id } } }',
    ],
    [
      'a write in a fragment nested in an inline one',
      'mutation { ... { ...D } likePost { id } } fragment D on Mutation { deleteAccount(password: "p") }',
    ],
    [
      'a write skipped by a directive (a field that may run counts)',
      'mutation { logOutEverywhere likePost @skip(if: true) { id } }',
    ],
  ])('should refuse, before anything runs, an operation with %s', (_, query) => {
    expectRefused(query);
  });

  it('should judge the operation that runs, not the others of its document', () => {
    const document = `mutation Alone { logOutEverywhere } mutation Crowded { logOutEverywhere likePost { id } }`;
    expect(refusalOf(rules, document, 'Alone')).toBeNull();
    expectRefused(document, 'Crowded');
  });

  it('should leave operations without those mutations alone', () => {
    expect(
      refusalOf(rules, 'mutation { a: createPost(title: "a") { id } b: likePost { id } }'),
    ).toBeNull();
    expect(refusalOf(rules, '{ posts(first: 1) { id } postsConnection { cursor } }')).toBeNull();
  });
});

describe('OperationRules: expensive fields', () => {
  const Tag = new GraphQLObjectType({
    name: 'Tag',
    fields: () => ({
      slug: { type: GraphQLString },
      // A tag's own posts: expensive, whatever holds it.
      posts: {
        type: TaggedConnection,
        args: page,
        extensions: expensive(() => POSTS_SCAN_WORK),
      },
    }),
  });
  const TaggedConnection: GraphQLObjectType = new GraphQLObjectType({
    name: 'TaggedConnection',
    fields: () => ({
      nodes: { type: new GraphQLList(Post) },
      // Counted by a scan under Query.list only.
      totalCount: {
        type: GraphQLInt,
        extensions: expensive(({ parent }) =>
          parent?.coordinate === 'Query.list' ? POSTS_SCAN_WORK : null,
        ),
      },
    }),
  });
  const tags = { tags: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) } };
  const marked = new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        search: {
          type: new GraphQLNonNull(new GraphQLList(Post)),
          args: { ...page, query: { type: GraphQLString } },
          extensions: expensive((_, options) => options.searchRankWindow ?? 1_000),
        },
        list: {
          type: TaggedConnection,
          args: { ...page, ...tags },
          extensions: expensive(({ args }) =>
            Array.isArray(args.tags) && args.tags.length > 0 ? POSTS_SCAN_WORK : null,
          ),
        },
        tag: { type: Tag, args: { slug: { type: GraphQLString } } },
        popular: { type: new GraphQLNonNull(new GraphQLList(Tag)), args: page },
      },
    }),
  });

  const rulesOf = (options: Partial<BlogModuleOptions> = {}) =>
    new OperationRules({
      jwtSecret: 'unused',
      maxQueryComplexity: 1_000_000,
      documentLimits: { maxAliases: 1000, maxDepth: 100 },
      ...options,
    } as BlogModuleOptions);
  const rules = rulesOf();
  const check = (
    query: string,
    { on = rules, operationName, variables = {} }: CheckOptions = {},
  ): GraphQLError | null => {
    try {
      on.check(marked, parse(query), documentKeyOf(query), operationName, variables);
      return null;
    } catch (error) {
      if (error instanceof GraphQLError) return error;
      throw error;
    }
  };
  interface CheckOptions {
    on?: OperationRules;
    operationName?: string;
    variables?: Record<string, unknown>;
  }
  /** How many expensive fields the rules count in `query`: with a maximum of 0, the refusal says. */
  const counted = (query: string, options: CheckOptions = {}) =>
    check(query, { ...options, on: rulesOf({ maxExpensiveFields: 0 }) })?.extensions
      .expensiveFields ?? 0;
  /** The cost the rules estimate for `query`, expensive fields allowed. */
  const priced = (query: string, options: Partial<BlogModuleOptions> = {}) =>
    check(query, { on: rulesOf({ maxExpensiveFields: 100, maxQueryComplexity: 0, ...options }) })
      ?.extensions.complexity;

  it('should let three aliased expensive fields run and refuse a fourth, naming the limit', () => {
    expect(check(`{ ${aliases(3, 'search(query: "x") { id }')} }`)).toBeNull();
    const refused = check(`{ ${aliases(4, 'search(query: "x") { id }')} }`);
    expect(refused?.extensions).toEqual({
      code: 'GRAPHQL_VALIDATION_FAILED',
      limit: 'expensiveFields',
      expensiveFields: 4,
      maxExpensiveFields: 3,
      http: { status: 400 },
    });
    expect(refused?.message).toMatch(/4 expensive fields.*at most 3/);
  });

  it('should count the fields of fragments as they are expanded, each path once', () => {
    const two = 'a: search { id } b: list(tags: ["x"]) { nodes { id } }';
    const query = `{ ...F x: tag(slug: "s") { ...T } } fragment F on Query { ${two} } fragment T on Tag { posts { totalCount } }`;
    expect(counted(query)).toBe(3);
    expect(check(query)).toBeNull();
    expect(counted(`{ ...F ...F } fragment F on Query { ${two} }`)).toBe(2);
    expect(counted(`{ ...F ... on Query { ...F } } fragment F on Query { ${two} }`)).toBe(2);
    expect(
      counted(`{ ...F c: search { id } d: search { id } } fragment F on Query { ${two} }`),
    ).toBe(4);
    const spread = `{ one: tag(slug: "a") { ...T } two: tag(slug: "b") { ...T } } fragment T on Tag { posts { nodes { id } } p: posts { nodes { id } } }`;
    expect(counted(spread)).toBe(4);
    expect(check(spread)?.extensions).toMatchObject({ limit: 'expensiveFields' });
  });

  it('should read only the operation that runs', () => {
    const document = `query Small { search { id } } query Big { ${aliases(9, 'search { id }')} }`;
    expect(check(document, { operationName: 'Small' })).toBeNull();
    expect(check(document, { operationName: 'Big' })?.extensions.expensiveFields).toBe(9);
  });

  it('should count what a use costs: filters when given, counts under the field that scans', () => {
    expect(counted('{ list { nodes { id } } a: list(tags: []) { nodes { id } } }')).toBe(0);
    expect(counted('{ list(tags: ["x"]) { nodes { id } } }')).toBe(1);
    expect(counted('{ list { totalCount } }')).toBe(1);
    expect(counted('{ list(tags: ["x"]) { totalCount } }')).toBe(2);
    expect(counted('query ($t: [String!]) { list(tags: $t) { nodes { id } } }')).toBe(0);
    expect(
      counted('query ($t: [String!]) { list(tags: $t) { nodes { id } } }', {
        variables: { t: ['x'] },
      }),
    ).toBe(1);
    // A tag's totalCount is not counted; its posts are.
    expect(counted('{ tag(slug: "s") { posts(first: 0) { totalCount } } }')).toBe(1);
    expect(counted('{ popular { slug } tag(slug: "s") { slug } }')).toBe(0);
  });

  it('should price an expensive field by its work, times the page sizes above it', () => {
    expect(priced('{ search(first: 2) { id } }')).toBe(1_000 + 1 + 2 * 1);
    expect(priced('{ search(first: 2) { id } }', { searchRankWindow: 250 })).toBe(250 + 1 + 2);
    // Its page size no longer says what it costs: a page of 0 ranks the same window.
    expect(priced('{ search(first: 0) { id } }')).toBe(1_000 + 1 + 1);
    // A connection's count runs once, whatever its page size: it is charged beside the page.
    expect(priced('{ list { totalCount } }')).toBe(POSTS_SCAN_WORK + 1 + 20 * 1);
    expect(priced('{ list(tags: ["x"], first: 2) { totalCount nodes { id } } }')).toBe(
      2 * POSTS_SCAN_WORK + 1 + 2 * (1 + (1 + 1)),
    );
    expect(priced('{ popular(first: 10) { posts(first: 1) { nodes { id } } } }')).toBe(
      1 + 10 * (POSTS_SCAN_WORK + 1 + 1 * (1 + 1)),
    );
  });

  it('should refuse every expensive field at a maximum of 0, and a maximum that is not a count', () => {
    expect(check('{ search { id } }', { on: rulesOf({ maxExpensiveFields: 0 }) })).toMatchObject({
      extensions: { limit: 'expensiveFields', expensiveFields: 1, maxExpensiveFields: 0 },
    });
    expect(check('{ popular { slug } }', { on: rulesOf({ maxExpensiveFields: 0 }) })).toBeNull();
    for (const bad of [-1, 1.5, Number.NaN]) {
      expect(() => rulesOf({ maxExpensiveFields: bad })).toThrow(/maxExpensiveFields/);
    }
  });

  it('should refuse a fragment bomb of expensive fields as a cost it cannot compute', () => {
    const levels = 16;
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
    );
    const query = `{ ...F0 } ${fragments.join(' ')} fragment F${levels} on Query { search { id } }`;
    expect(check(query)?.extensions).toMatchObject({
      code: 'GRAPHQL_VALIDATION_FAILED',
      limit: 'complexity',
    });
    expect(check(query)?.message).toMatch(/could not be computed/);
  });
});
