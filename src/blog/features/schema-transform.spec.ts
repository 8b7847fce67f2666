import { buildSchema, graphqlSync, GraphQLObjectType, printSchema } from 'graphql';

import { parseCoordinate } from './schema-coordinates';
import { withoutCoordinates } from './schema-transform';

const SDL = `
  type Query {
    posts(first: Int, tags: [String!]): [Post!]!
    tag(slug: String!): Tag
    search(input: SearchInput!): [Hit!]!
  }
  type Mutation {
    createPost(input: CreatePostInput!): Post!
  }
  type Post { id: ID! title: String! tags: [String!]! }
  type Tag { slug: String! kind: TagKind! }
  enum TagKind { PLAIN LOUD }
  enum Order { NEWEST OLDEST }
  type Hit { post: Post! }
  input SearchInput { words: String! order: Order tags: [String!] }
  input CreatePostInput { title: String! tags: [String!] }
`;

describe('withoutCoordinates', () => {
  const schema = buildSchema(SDL);
  (schema.getQueryType() as GraphQLObjectType).getFields().posts.resolve = () => [
    { id: '1', title: 'Kept', tags: ['x'] },
  ];

  it('should remove the types, fields, input fields and arguments named, and what only they used', () => {
    const result = withoutCoordinates(schema, [
      'Tag',
      'Query.tag',
      'Post.tags',
      'CreatePostInput.tags',
      'SearchInput.tags',
      'Query.posts(tags:)',
    ]);
    expect(printSchema(result)).toBe(
      printSchema(
        buildSchema(`
          type Query {
            posts(first: Int): [Post!]!
            search(input: SearchInput!): [Hit!]!
          }
          type Mutation {
            createPost(input: CreatePostInput!): Post!
          }
          type Post { id: ID! title: String! }
          enum Order { NEWEST OLDEST }
          type Hit { post: Post! }
          input SearchInput { words: String! order: Order }
          input CreatePostInput { title: String! }
        `),
      ),
    );
  });

  it('should remove the types only a removed field reached, enums included', () => {
    const result = withoutCoordinates(schema, ['Query.search', 'Query.tag']);
    for (const name of ['Hit', 'SearchInput', 'Order', 'Tag', 'TagKind']) {
      expect(result.getType(name)).toBeUndefined();
    }
    expect(result.getType('Post')).toBeDefined();
  });

  it('should keep the resolvers of what stays', () => {
    const result = withoutCoordinates(schema, ['Post.tags', 'Query.posts(tags:)']);
    expect(graphqlSync({ schema: result, source: '{ posts { id title } }' })).toEqual({
      data: { posts: [{ id: '1', title: 'Kept' }] },
    });
    const refused = graphqlSync({ schema: result, source: '{ posts(tags: ["x"]) { id } }' });
    expect(refused.errors?.[0].message).toBe('Unknown argument "tags" on field "Query.posts".');
  });
});

describe('parseCoordinate', () => {
  it.each([
    ['Tag', { type: 'Tag' }],
    ['Post.tags', { type: 'Post', field: 'tags' }],
    ['Query.posts(tags:)', { type: 'Query', field: 'posts', argument: 'tags' }],
  ])('should read %s', (text, coordinate) => {
    expect(parseCoordinate(text)).toEqual({ field: undefined, argument: undefined, ...coordinate });
  });

  it.each(['', 'Post.', 'Query.posts(tags)', 'Query.posts(tags:', 'Post tags', 'Query.posts.tags'])(
    'should refuse %p',
    (text) => {
      expect(() => parseCoordinate(text)).toThrow('is not a schema coordinate');
    },
  );
});
