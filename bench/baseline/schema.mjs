/**
 * The baseline's schema and hand-written resolvers: the part of the blog contract that the
 * benchmark uses (users, posts, comments, likes, the feed, and for P1 a post by its slug with
 * its rendered content, headings and tags), with the same types, defaults, page bounds and
 * visibility rules as our service. It reads what the service writes (slugs, rendered HTML,
 * headings, word counts, tags) but writes none of it: its createPost (W1) stores the title and
 * content as before.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { GraphQLError, GraphQLScalarType, Kind } = require('graphql');

export const typeDefs = /* GraphQL */ `
  """
  A date-time string at UTC, ISO-8601.
  """
  scalar DateTime

  type User {
    id: ID!
    name: String!
    email: String!
    handle: String!
    avatar: String
    createdAt: DateTime!
    posts(first: Int = 20, after: ID): [Post!]!
    postsCount: Int!
    followersCount: Int!
    followingCount: Int!
    isFollowedByMe: Boolean!
  }

  type Post {
    id: ID!
    title: String!
    content: String!
    author: User!
    createdAt: DateTime!
    updatedAt: DateTime!
    publishedAt: DateTime
    comments(first: Int = 20, after: ID): [Comment!]!
    commentsCount: Int!
    likesCount: Int!
    isLikedByMe: Boolean!
    slug: String
    contentHtml: String!
    toc: [TocEntry!]!
    readingTimeMinutes: Int!
    tags: [String!]!
  }

  type TocEntry {
    id: String!
    level: Int!
    title: String!
  }

  type Comment {
    id: ID!
    text: String!
    textHtml: String!
    createdAt: DateTime!
    author: User!
    post: Post!
  }

  input CreatePostInput {
    title: String!
    content: String!
    publish: Boolean = true
  }

  type Query {
    users(first: Int = 20, after: ID): [User!]!
    user(id: ID!): User
    posts(first: Int = 20, after: ID, authorId: ID): [Post!]!
    post(id: ID!): Post
    postBySlug(slug: String!): Post
    feed(first: Int = 20, after: ID): [Post!]!
    me: User
  }

  type Mutation {
    createPost(input: CreatePostInput!): Post!
    likePost(postId: ID!): Post!
    unlikePost(postId: ID!): Post!
  }
`;

const error = (message, code, field) =>
  new GraphQLError(message, { extensions: { code, ...(field ? { field } : {}) } });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function page({ first, after }) {
  if (!Number.isInteger(first) || first < 0 || first > 100) {
    throw error(`first must be between 0 and 100; got ${first}.`, 'BAD_USER_INPUT', 'first');
  }
  if (after != null && !UUID.test(after)) {
    throw error('after must be the id of an item of the previous page.', 'BAD_USER_INPUT', 'after');
  }
  return { first, after: after ?? null };
}

/** The form of a slug that postBySlug looks up (the service's lookupSlug). */
const lookupSlug = (slug) => (slug.length > 320 ? '' : slug.normalize('NFC').toLowerCase().trim());

/** Minutes to read `wordCount` words at 230 a minute, rounded up, at least 1 (the service's). */
function readingTimeMinutes(wordCount) {
  const minutes = Math.ceil(wordCount / 230);
  return Number.isFinite(minutes) && minutes > 1 ? minutes : 1;
}

const canSee = (post, viewer) =>
  post.publishedAt !== null || post.authorId === viewer?.id || viewer?.role === 'admin';

function signedIn(viewer, action) {
  if (!viewer) throw error(`You must be signed in to ${action}.`, 'UNAUTHENTICATED');
  return viewer;
}

function publishedPost(store, id, viewer) {
  const post = store.postById(id);
  if (!post || !canSee(post, viewer)) throw error('Post not found.', 'NOT_FOUND');
  if (post.publishedAt === null) {
    throw error('The post is a draft; publish it first.', 'BAD_USER_INPUT', 'postId');
  }
  return post;
}

const DateTime = new GraphQLScalarType({
  name: 'DateTime',
  serialize: (value) => (value instanceof Date ? value.toISOString() : value),
  parseValue: (value) => new Date(value),
  parseLiteral: (ast) => (ast.kind === Kind.STRING ? new Date(ast.value) : null),
});

export const resolvers = {
  DateTime,
  Query: {
    users: (_, args, { store }) => store.listUsers(page(args)),
    user: (_, { id }, { loaders }) => loaders.userById.load(id),
    posts: (_, args, { store }) => store.listPosts(page(args), args.authorId),
    post: (_, { id }, { store, viewer }) => {
      const post = store.postById(id);
      return post && canSee(post, viewer) ? post : null;
    },
    postBySlug: (_, { slug }, { store, viewer }) => {
      const wanted = lookupSlug(slug);
      const post = wanted ? store.postBySlug(wanted) : null;
      return post && canSee(post, viewer) ? post : null;
    },
    feed: (_, args, { store, viewer }) => {
      const wanted = page(args);
      if (!viewer || !store.followsAnyone(viewer.id)) return store.listPosts(wanted);
      return store.feed(viewer.id, wanted);
    },
    me: (_, __, { viewer }) => viewer,
  },
  Mutation: {
    createPost: (_, { input }, { store, viewer }) => {
      const author = signedIn(viewer, 'create a post');
      const title = input.title.trim();
      if (title.length < 1 || title.length > 200) {
        throw error('title must be 1-200 characters.', 'BAD_USER_INPUT', 'title');
      }
      if (input.content.trim().length < 1) {
        throw error('content must not be empty.', 'BAD_USER_INPUT', 'content');
      }
      return store.createPost({
        title,
        content: input.content,
        authorId: author.id,
        publish: input.publish ?? true,
      });
    },
    likePost: (_, { postId }, { store, viewer, loaders }) => {
      const user = signedIn(viewer, 'like a post');
      const post = publishedPost(store, postId, user);
      store.like(post.id, user.id);
      loaders.likesCount.clear(post.id);
      loaders.likedByViewer.clear(post.id);
      return post;
    },
    unlikePost: (_, { postId }, { store, viewer, loaders }) => {
      const user = signedIn(viewer, 'unlike a post');
      const post = publishedPost(store, postId, user);
      store.unlike(post.id, user.id);
      loaders.likesCount.clear(post.id);
      loaders.likedByViewer.clear(post.id);
      return post;
    },
  },
  User: {
    email: (user, _, { viewer }) =>
      viewer?.id === user.id || viewer?.role === 'admin' ? user.email : '',
    posts: (user, args, { loaders }) => loaders.postsByAuthor(page(args)).load(user.id),
    postsCount: (user, _, { loaders }) => loaders.postsCount.load(user.id),
    followersCount: (user, _, { loaders }) => loaders.followersCount.load(user.id),
    followingCount: (user, _, { loaders }) => loaders.followingCount.load(user.id),
    isFollowedByMe: (user, _, { loaders }) => loaders.followedByViewer.load(user.id),
  },
  Post: {
    author: (post, _, { loaders }) => loaders.userById.load(post.authorId),
    comments: (post, args, { loaders }) => loaders.commentsByPost(page(args)).load(post.id),
    commentsCount: (post, _, { loaders }) => loaders.commentsCount.load(post.id),
    likesCount: (post, _, { loaders }) => loaders.likesCount.load(post.id),
    isLikedByMe: (post, _, { loaders }) => loaders.likedByViewer.load(post.id),
    contentHtml: async (post, _, { loaders }) => (await loaders.bodyById.load(post.id)).html,
    toc: async (post, _, { loaders }) => (await loaders.bodyById.load(post.id)).toc,
    readingTimeMinutes: (post) => readingTimeMinutes(post.wordCount),
    tags: (post, _, { loaders }) => loaders.tagsByPost.load(post.id),
  },
  Comment: {
    author: (comment, _, { loaders }) => loaders.userById.load(comment.authorId),
    post: (comment, _, { loaders }) => loaders.postById.load(comment.postId),
  },
};
