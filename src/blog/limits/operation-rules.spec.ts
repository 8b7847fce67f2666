import {
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
import { documentKeyOf, OperationRules } from './operation-rules';

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
/** A small schema of the blog's shape: paged lists and a connection. */
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      posts: { type: new GraphQLNonNull(new GraphQLList(Post)), args: page },
      postsConnection: { type: PostConnection, args: page },
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
