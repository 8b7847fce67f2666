import { readFileSync } from 'node:fs';

import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, INestApplication, Injectable, Module, Type } from '@nestjs/common';
import {
  Args,
  Field,
  GraphQLModule,
  InputType,
  Int,
  ObjectType,
  Query,
  registerEnumType,
  ResolveField,
  Resolver,
} from '@nestjs/graphql';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  buildClientSchema,
  buildSchema,
  findBreakingChanges,
  getIntrospectionQuery,
  getNamedType,
  GraphQLArgument,
  GraphQLNamedType,
  GraphQLSchema,
  GraphQLType,
  IntrospectionQuery,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
} from 'graphql';
import request from 'supertest';

import { TestApp, TestUser } from './helpers/test-app';
import { collect, wsClient } from './helpers/ws-client';
import {
  BLOG_FEATURE_NAMES,
  BLOG_MODULE_OPTIONS,
  BlogFeatureName,
  BlogFeatureSwitches,
  BlogModule,
  blogMigrations,
  blogSchemaTransform,
  CompiledExecution,
  formatGraphQLError,
  Post,
} from '../src/blog';
import { BlogFeature } from '../src/blog/blog-feature';
import { blogFeatures } from '../src/blog/blog-features';
import {
  coordinatesOf,
  hasCoordinate,
  parseCoordinate,
} from '../src/blog/features/schema-coordinates';
import { FEED_QUERY, ideTabs, POST_PAGE_QUERY, SEARCH_QUERY } from '../src/ide/ide-page';

const CONTRACT = buildSchema(readFileSync(`${__dirname}/../../shared/api.graphql`, 'utf8'));
const SECRET = 'a-host-secret-of-at-least-32-characters';

async function introspect(gql: (query: string) => Promise<any>): Promise<GraphQLSchema> {
  const response = await gql(getIntrospectionQuery());
  if (response.errors) throw new Error(JSON.stringify(response.errors));
  return buildClientSchema(response.data as IntrospectionQuery);
}

/** A selection from the root `Query` down to `target`, as `a { b { <inner> } }`. */
function pathTo(schema: GraphQLSchema, target: string, inner: string): string {
  const query = schema.getQueryType() as GraphQLNamedType;
  const seen = new Map<string, string>([[query.name, inner]]);
  const queue: [GraphQLNamedType, (selection: string) => string][] = [[query, (s) => s]];
  while (queue.length > 0) {
    const [type, wrap] = queue.shift() as [GraphQLNamedType, (selection: string) => string];
    if (type.name === target) return wrap(inner);
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const next = getNamedType(field.type);
      if (seen.has(next.name)) continue;
      seen.set(next.name, '');
      queue.push([next, (selection) => wrap(`${field.name} { ${selection} }`)]);
    }
  }
  throw new Error(`No path from Query to ${target}`);
}

/**
 * A document that uses `coordinate` of `full` (the schema that has it), and the names one of
 * which the validation error must mention once the coordinate is gone.
 */
function documentUsing(
  full: GraphQLSchema,
  coordinate: string,
): { document: string; names: string[] } {
  const { type, field, argument } = parseCoordinate(coordinate);
  if (field === undefined) {
    return { document: `{ __typename ... on ${type} { __typename } }`, names: [type] };
  }
  const operation = (root: string) =>
    root === full.getMutationType()?.name
      ? 'mutation'
      : root === full.getSubscriptionType()?.name
        ? 'subscription'
        : 'query';
  const named = full.getType(type);
  if (isInputObjectType(named)) {
    for (const root of [full.getQueryType(), full.getMutationType()]) {
      for (const candidate of Object.values(root?.getFields() ?? {})) {
        const arg = candidate.args.find((a) => getNamedType(a.type).name === type);
        if (arg && root) {
          return {
            document: `${operation(root.name)} { ${candidate.name}(${arg.name}: { ${field}: null }) { __typename } }`,
            names: [field],
          };
        }
      }
    }
    throw new Error(`No root field takes ${type}`);
  }
  const use = argument === undefined ? field : `${field}(${argument}: null)`;
  // Where the field went too, the error names the field instead of its argument.
  const names = argument === undefined ? [field] : [argument, field];
  if (operation(type) !== 'query') return { document: `${operation(type)} { ${use} }`, names };
  return { document: `{ ${pathTo(full, type, use)} }`, names };
}

/**
 * The coordinates of `features` that `schema` lacks. An argument on another feature's field
 * (`Query.searchPosts(tags:)`) is missed only where that field is there.
 */
function missingFrom(schema: GraphQLSchema, features: BlogFeature[]): string[] {
  return coordinatesOf(features).filter((coordinate) => {
    const { type, field, argument } = parseCoordinate(coordinate);
    if (argument !== undefined && !hasCoordinate(schema, `${type}.${field}`)) return false;
    return !hasCoordinate(schema, coordinate);
  });
}

/**
 * A host app of its own on in-memory SQLite; `features` are given to the GraphQL root's
 * transform, or with `false` no transform is set.
 */
function hostModule(blog: DynamicModule, features: BlogFeatureSwitches | false) {
  @Module({
    imports: [
      TypeOrmModule.forRoot({
        type: 'better-sqlite3',
        database: ':memory:',
        autoLoadEntities: true,
        migrations: blogMigrations,
        migrationsRun: true,
      }),
      GraphQLModule.forRoot<ApolloDriverConfig>({
        driver: ApolloDriver,
        autoSchemaFile: true,
        formatError: formatGraphQLError,
        ...(features === false ? {} : { transformSchema: blogSchemaTransform(features) }),
      }),
      blog,
    ],
  })
  class HostModule {}
  return HostModule;
}

@ObjectType()
class FakeHit {
  @Field(() => String)
  word!: string;
}

@InputType()
class FakeSearchInput {
  @Field(() => String)
  words!: string;

  @Field(() => String, { nullable: true })
  label?: string;
}

enum FakeLabelKind {
  PLAIN = 'PLAIN',
  LOUD = 'LOUD',
}
registerEnumType(FakeLabelKind, { name: 'FakeLabelKind' });

@ObjectType()
class FakeLabel {
  @Field(() => String)
  name!: string;

  @Field(() => FakeLabelKind)
  kind!: FakeLabelKind;
}

@Injectable()
class FakeLabels {
  label(name: string): FakeLabel {
    return { name, kind: FakeLabelKind.LOUD };
  }
}

@Resolver(() => Post)
class FakeSearchResolver {
  @Query(() => [FakeHit])
  fakeSearch(
    @Args('input', { type: () => FakeSearchInput }) input: FakeSearchInput,
    @Args('label', { type: () => String, nullable: true }) label?: string,
  ): FakeHit[] {
    return input.words.split(' ').map((word) => ({
      word: `${word}:${input.label ?? ''}:${label ?? ''}`,
    }));
  }

  @ResolveField(() => Int)
  fakeRank(): number {
    return 1;
  }
}

@Resolver(() => Post)
class FakeLabelsResolver {
  constructor(private readonly labels: FakeLabels) {}

  @Query(() => FakeLabel, { nullable: true })
  fakeLabel(@Args('name', { type: () => String }) name: string): FakeLabel {
    return this.labels.label(name);
  }

  @ResolveField(() => [String])
  fakeLabels(): string[] {
    return ['label'];
  }
}

/** Stand-ins for two features, the second adding an input field and an argument to the first. */
const fakeSearch: BlogFeature = {
  name: 'search',
  providers: [FakeSearchResolver],
  schema: {
    types: ['FakeHit', 'FakeSearchInput'],
    fields: ['Query.fakeSearch', 'Post.fakeRank'],
  },
};
const fakeTags: BlogFeature = {
  name: 'tags',
  providers: [FakeLabels, FakeLabelsResolver],
  schema: {
    types: ['FakeLabel', 'FakeLabelKind'],
    fields: ['Query.fakeLabel', 'Post.fakeLabels', 'FakeSearchInput.label'],
    arguments: ['Query.fakeSearch(label:)'],
  },
};

const errorsOf = (response: any): { message: string; extensions?: { code?: string } }[] =>
  response.errors ?? [];

describe('Optional features left out through BlogModule options (e2e)', () => {
  describe('the standalone app, with BLOG_FEATURES', () => {
    let full: GraphQLSchema;
    const registered = blogFeatures.map((feature) => feature.name);

    beforeAll(async () => {
      const t = await TestApp.start();
      try {
        full = await introspect((query) => t.gql(query));
      } finally {
        await t.close();
      }
    });

    it('should serve every registered feature when BLOG_FEATURES is unset', () => {
      expect(missingFrom(full, blogFeatures)).toEqual([]);
      expect(findBreakingChanges(CONTRACT, full).map((c) => c.description)).toEqual([]);
    });

    const cases: [string, BlogFeatureName[]][] = [
      ...BLOG_FEATURE_NAMES.map((name): [string, BlogFeatureName[]] => [name, [name]]),
      ['every feature', [...BLOG_FEATURE_NAMES]],
    ];

    describe.each(cases)('with %s left out', (_, leftOut) => {
      let t: TestApp;
      let schema: GraphQLSchema;
      const kept = BLOG_FEATURE_NAMES.filter((name) => !leftOut.includes(name));
      const gone = blogFeatures.filter((feature) => leftOut.includes(feature.name));

      beforeAll(async () => {
        t = await TestApp.start({ env: { BLOG_FEATURES: kept.join(',') || 'none' } });
        schema = await introspect((query) => t.gql(query));
      });
      afterAll(() => t?.close());

      it('should have none of its types, fields, input fields and arguments', () => {
        const left = coordinatesOf(gone).filter((c) => hasCoordinate(schema, c));
        expect(left).toEqual([]);
      });

      it('should keep every type and field of the public contract', () => {
        expect(findBreakingChanges(CONTRACT, schema).map((c) => c.description)).toEqual([]);
      });

      it('should keep every coordinate of the features left on', () => {
        const on = blogFeatures.filter((feature) => !leftOut.includes(feature.name));
        expect(missingFrom(schema, on)).toEqual([]);
      });

      it('should keep no type that nothing uses', () => {
        const used = new Set<string>(['Query', 'Mutation', 'Subscription']);
        const use = (type: GraphQLType) => used.add(getNamedType(type).name);
        for (const type of Object.values(schema.getTypeMap())) {
          if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) continue;
          for (const field of Object.values(type.getFields())) {
            use(field.type);
            if ('args' in field) field.args.forEach((arg: GraphQLArgument) => use(arg.type));
          }
        }
        const unused = Object.values(schema.getTypeMap()).filter(
          (type) =>
            !type.name.startsWith('__') && !isSpecifiedScalarType(type) && !used.has(type.name),
        );
        expect(unused.map((type) => type.name)).toEqual([]);
      });

      it('should refuse a document using any of them with GRAPHQL_VALIDATION_FAILED', async () => {
        const removed = coordinatesOf(gone).filter((c) => hasCoordinate(full, c));
        for (const coordinate of removed) {
          const { document, names } = documentUsing(full, coordinate);
          const errors = errorsOf(await t.gql(document));
          expect({
            coordinate,
            codes: [...new Set(errors.map((e) => e.extensions?.code))],
          }).toEqual({ coordinate, codes: ['GRAPHQL_VALIDATION_FAILED'] });
          const named = errors.some((e) => names.some((name) => e.message.includes(`"${name}"`)));
          expect({ coordinate, named }).toEqual({ coordinate, named: true });
        }
      });

      const subscriptionFields = coordinatesOf(gone).filter((c) => c.startsWith('Subscription.'));
      if (subscriptionFields.length > 0) {
        it('should refuse its subscriptions on the WebSocket too', async () => {
          const { client } = wsClient((await t.listen()).ws);
          try {
            for (const coordinate of subscriptionFields) {
              const { document } = documentUsing(full, coordinate);
              const [result] = await collect(client, document).next(1);
              expect({ coordinate, code: result.errors?.[0].extensions?.code }).toEqual({
                coordinate,
                code: 'GRAPHQL_VALIDATION_FAILED',
              });
            }
          } finally {
            await client.dispose();
          }
        });
      }

      it('should not register its providers', () => {
        const classes = gone
          .flatMap((feature) => feature.providers)
          .filter((provider): provider is Type => typeof provider === 'function');
        for (const provider of classes) {
          expect(() => t.app.get(provider, { strict: false })).toThrow();
        }
      });

      it('should still serve the rest of the blog and the features left on', async () => {
        const author = await t.signUp();
        const reader = await t.signUp();
        const { createPost } = await t.data(
          `mutation { createPost(input: {title: "Kept", content: "graphql zebra words"}) { id } }`,
          {},
          author.token,
        );
        const { posts } = await t.data(`{ posts(first: 5) { id title author { id } } }`);
        expect(posts).toContainEqual({
          id: createPost.id,
          title: 'Kept',
          author: { id: author.user.id },
        });
        // Compiled execution (graphql-jit) runs on the schema without the features too.
        const execution = t.app.get(CompiledExecution);
        await execution.idle();
        const compiled = execution.stats.compiled;
        expect((await t.data(`{ posts(first: 5) { id title author { id } } }`)).posts).toEqual(
          posts,
        );
        expect(execution.stats.compiled).toBe(compiled + 1);
        for (const name of kept.filter((n) => registered.includes(n))) {
          await stillWorks[name](t, author, reader, createPost.id);
        }
      });
    });
  });

  describe('the demo seed', () => {
    const seeded = (features: string) =>
      TestApp.start({ env: { SEED_DEMO: 'true', BLOG_FEATURES: features } });
    const logInAsAda = async (t: TestApp) => {
      const { logIn } = await t.data(
        `mutation { logIn(input: {email: "ada@example.com", password: "demo-password"}) { token } }`,
      );
      return `Bearer ${logIn.token}`;
    };

    it('should give the posts tags, Ada notifications from what the others did, and a post to search', async () => {
      const t = await seeded('all');
      try {
        const ada = await logInAsAda(t);
        const { notifications, unreadNotificationsCount } = await t.data(
          `{ unreadNotificationsCount notifications(first: 20) { edges { node { kind read actor { handle } post { title } } } } }`,
          {},
          ada,
        );
        const seen = notifications.edges.map(
          ({ node }: any) => `${node.kind} ${node.actor.handle} ${node.post?.title ?? '-'}`,
        );
        expect(seen.sort()).toEqual(
          [
            'FOLLOWED grace -',
            'FOLLOWED alan -',
            'POST_LIKED grace Notes on the Analytical Engine',
            'POST_LIKED alan Poetical science',
            'POST_COMMENTED alan Notes on the Analytical Engine',
            'POST_COMMENTED grace Notes on the Analytical Engine',
            'FOLLOWEE_PUBLISHED grace Finding the first bug',
            'FOLLOWEE_PUBLISHED grace Compilers for everyone',
          ].sort(),
        );
        expect(unreadNotificationsCount).toBe(seen.length);

        const { posts, tag } = await t.data(
          `{ posts(first: 10) { title tags } tag(slug: "computing") { postsCount } }`,
        );
        expect(posts).toContainEqual({
          title: 'Notes on the Analytical Engine',
          tags: ['history', 'computing'],
        });
        expect(posts.every((post: { tags: string[] }) => post.tags.length > 0)).toBe(true);
        expect(tag).toEqual({ postsCount: 2 });

        const { searchPosts } = await t.data(
          `{ searchPosts(query: "graphql") { edges { rank snippet node { title } } } }`,
        );
        expect(searchPosts.edges[0].node.title).toBe('Searching this blog with GraphQL');
        expect(searchPosts.edges[0].snippet).toMatch(/graphql/i);
      } finally {
        await t.close();
      }
    });

    it('should answer every pre-filled tab of the IDE on the demo, signed in as Ada', async () => {
      const t = await seeded('all');
      try {
        const ada = await logInAsAda(t);
        const answers = await Promise.all(ideTabs().map((query) => t.gql(query, {}, ada)));
        expect(answers.map((answer) => answer.errors ?? [])).toEqual(ideTabs().map(() => []));
        const [, page, search, tags] = answers.map((answer) => answer.data as any);
        expect(page.postBySlug).toMatchObject({
          title: 'Notes on the Analytical Engine',
          slug: 'notes-on-the-analytical-engine',
          status: 'PUBLISHED',
          toc: [
            { id: 'the-operations', level: 2, title: 'The operations' },
            { id: 'note-g', level: 2, title: 'Note G' },
          ],
          // Alan's comment, and the thread's two replies (Grace's, then Ada's).
          comments: [
            { textHtml: expect.stringContaining('Patterns') },
            { textHtml: expect.stringContaining('cards') },
            { textHtml: expect.stringContaining('my point') },
          ],
        });
        expect(page.postBySlug.contentHtml).toContain('<table>');
        expect(search.searchPosts.edges[0]).toMatchObject({
          rank: expect.any(Number),
          snippet: expect.stringMatching(/graphql/i),
          node: { title: 'Searching this blog with GraphQL' },
        });
        expect(tags.tag.posts.edges.map((edge: any) => edge.node.title).sort()).toEqual([
          'Finding the first bug',
          'Notes on the Analytical Engine',
        ]);
      } finally {
        await t.close();
      }
    });

    it('should pre-fill the IDE with the tabs of the features left on only', async () => {
      const t = await TestApp.start({ env: { GRAPHIQL: 'true', BLOG_FEATURES: 'search' } });
      try {
        const page = await t.http.get('/graphql').set('accept', 'text/html').expect(200);
        const config = /<script id="ide-config" type="application\/json">(.*?)<\/script>/.exec(
          page.text,
        );
        expect(JSON.parse(config![1]).tabs).toEqual([FEED_QUERY, POST_PAGE_QUERY, SEARCH_QUERY]);
        expect(ideTabs({ search: false, tags: false })).toEqual([FEED_QUERY, POST_PAGE_QUERY]);
      } finally {
        await t.close();
      }
    });

    it('should seed the rest of the demo with every feature left out', async () => {
      const t = await seeded('none');
      try {
        await logInAsAda(t);
        const { posts } = await t.data(`{ posts(first: 10) { title author { handle } } }`);
        expect(posts).toHaveLength(6);
        const { user } = await t.data(
          `query ($handle: String!) { user: userByHandle(handle: $handle) { followersCount } }`,
          { handle: 'ada' },
        );
        expect(user).toEqual({ followersCount: 2 });
      } finally {
        await t.close();
      }
    });
  });

  describe('the mechanism, on stand-in features in a host app', () => {
    const realFeatures = [...blogFeatures];
    let app: INestApplication | undefined;

    beforeAll(() => blogFeatures.splice(0, blogFeatures.length, fakeSearch, fakeTags));
    afterAll(() => blogFeatures.splice(0, blogFeatures.length, ...realFeatures));
    afterEach(async () => {
      await app?.close();
      app = undefined;
    });

    const start = async (blog: DynamicModule, features: BlogFeatureSwitches | false) => {
      const moduleRef = await Test.createTestingModule({
        imports: [hostModule(blog, features)],
      }).compile();
      app = moduleRef.createNestApplication({ logger: false });
      await app.init();
      return app;
    };
    const gql = (query: string) =>
      request((app as INestApplication).getHttpServer())
        .post('/graphql')
        .send({ query })
        .then((response) => response.body);
    const fakeCoordinates = coordinatesOf([fakeSearch, fakeTags]);

    it('should serve both stand-ins by default', async () => {
      await start(BlogModule.forRoot({ jwtSecret: SECRET }), {});
      const schema = await introspect(gql);
      expect(fakeCoordinates.filter((c) => !hasCoordinate(schema, c))).toEqual([]);
      const { data } = await gql(
        `{ fakeSearch(input: {words: "a b", label: "x"}, label: "y") { word } fakeLabel(name: "n") { name kind } }`,
      );
      expect(data).toEqual({
        fakeSearch: [{ word: 'a:x:y' }, { word: 'b:x:y' }],
        fakeLabel: { name: 'n', kind: 'LOUD' },
      });
      expect(app?.get(BLOG_MODULE_OPTIONS).features).toEqual({
        search: true,
        tags: true,
        notifications: true,
        bookmarks: true,
      });
    });

    it('should drop the input field and argument a feature adds to another feature', async () => {
      await start(BlogModule.forRoot({ jwtSecret: SECRET, features: { tags: false } }), {
        tags: false,
      });
      const schema = await introspect(gql);
      expect(coordinatesOf([fakeTags]).filter((c) => hasCoordinate(schema, c))).toEqual([]);
      expect(coordinatesOf([fakeSearch]).filter((c) => !hasCoordinate(schema, c))).toEqual([]);
      expect(app?.get(BLOG_MODULE_OPTIONS).features).toMatchObject({ search: true, tags: false });
      expect(() => app?.get(FakeLabels, { strict: false })).toThrow();
      const { data } = await gql(`{ fakeSearch(input: {words: "a"}) { word } }`);
      expect(data).toEqual({ fakeSearch: [{ word: 'a::' }] });
      for (const document of [
        `{ fakeSearch(input: {words: "a"}, label: "y") { word } }`,
        `{ fakeSearch(input: {words: "a", label: "x"}) { word } }`,
        `{ fakeLabel(name: "n") { name } }`,
        `{ posts { fakeLabels } }`,
        `{ __typename ... on FakeLabel { name } }`,
      ]) {
        const errors = errorsOf(await gql(document));
        expect({ document, codes: errors.map((e) => e.extensions?.code) }).toEqual({
          document,
          codes: ['GRAPHQL_VALIDATION_FAILED'],
        });
      }
    });

    it('should drop a feature whose fields are only its resolvers', async () => {
      await start(
        BlogModule.forRootAsync({
          useFactory: () => ({ jwtSecret: SECRET }),
          features: { search: false },
        }),
        { search: false },
      );
      const schema = await introspect(gql);
      expect(coordinatesOf([fakeSearch]).filter((c) => hasCoordinate(schema, c))).toEqual([]);
      expect(app?.get(BLOG_MODULE_OPTIONS).features).toMatchObject({ search: false, tags: true });
      expect((await gql(`{ fakeLabel(name: "n") { kind } }`)).data).toEqual({
        fakeLabel: { kind: 'LOUD' },
      });
    });

    it('should refuse to start, in one line, when the GraphQL root keeps a left-out feature', async () => {
      const starting = start(
        BlogModule.forRoot({ jwtSecret: SECRET, features: { tags: false } }),
        false,
      );
      // Nest drops the root fields of a resolver it does not register, not the input fields
      // and arguments that other classes declare.
      await expect(starting).rejects.not.toThrow(/Query\.fakeLabel\b/);
      await expect(starting).rejects.toThrow(
        /^BlogModule leaves out tags, but the GraphQL schema still has .*FakeSearchInput\.label.*: add transformSchema: blogSchemaTransform\(\{tags:false\}\) and transformAutoSchemaFile: true to GraphQLModule\.forRoot$/,
      );
    });

    it('should refuse features returned by the forRootAsync factory', async () => {
      const starting = start(
        BlogModule.forRootAsync({
          useFactory: () => ({ jwtSecret: SECRET, features: { tags: false } }),
        }),
        { tags: false },
      );
      await expect(starting).rejects.toThrow(/pass features beside useFactory/);
    });

    it('should refuse a feature name it does not know', () => {
      const features = { serach: false } as BlogFeatureSwitches;
      expect(() => BlogModule.forRoot({ jwtSecret: SECRET, features })).toThrow(
        'BlogModule features: "serach" is not a feature; the features are search, tags, notifications, bookmarks',
      );
      expect(() => blogSchemaTransform(features)).toThrow(/"serach" is not a feature/);
    });
  });
});

/** One client-visible check of each feature, for the features left on. */
const stillWorks: Record<
  BlogFeatureName,
  (t: TestApp, author: TestUser, reader: TestUser, postId: string) => Promise<void>
> = {
  tags: async (t, author) => {
    const { createPost } = await t.data(
      `mutation { createPost(input: {title: "Tagged", content: "c", tags: ["GraphQL"]}) { tags } }`,
      {},
      author.token,
    );
    expect(createPost.tags).toEqual(['graphql']);
  },
  bookmarks: async (t, _author, reader, postId) => {
    const { bookmarkPost } = await t.data(
      `mutation ($id: ID!) { bookmarkPost(postId: $id) { id isBookmarkedByMe } }`,
      { id: postId },
      reader.token,
    );
    expect(bookmarkPost).toEqual({ id: postId, isBookmarkedByMe: true });
  },
  search: async (t, _author, _reader, postId) => {
    const { searchPosts } = await t.data(
      `{ searchPosts(query: "zebra") { edges { rank snippet node { id } } } }`,
    );
    expect(searchPosts.edges.map((edge: any) => edge.node.id)).toContain(postId);
  },
  notifications: async (t, author, reader) => {
    await t.data(
      `mutation ($id: ID!) { followUser(userId: $id) { id } }`,
      { id: author.user.id },
      reader.token,
    );
    const { unreadNotificationsCount } = await t.data(
      `{ unreadNotificationsCount }`,
      {},
      author.token,
    );
    expect(unreadNotificationsCount).toBe(1);
  },
};
