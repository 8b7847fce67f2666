import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, INestApplication, Injectable, Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import request from 'supertest';

import {
  BLOG_MODULE_OPTIONS,
  BlogModule,
  BlogModuleOptions,
  blogMigrations,
  formatGraphQLError,
} from '../src/blog';
import { forgeToken, nowInSeconds } from './helpers/tokens';

const SECRET = 'a-host-secret-of-at-least-32-characters';

/** A host app of its own: it owns the TypeORM and GraphQL roots and imports BlogModule. */
function hostModule(blog: DynamicModule) {
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
      }),
      blog,
    ],
  })
  class HostModule {}
  return HostModule;
}

async function boot(blog: DynamicModule): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [hostModule(blog)] }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  return app.init();
}

async function gql(app: INestApplication, query: string, token?: string) {
  const req = request(app.getHttpServer()).post('/graphql');
  if (token) req.set('authorization', token);
  return (await req.send({ query })).body;
}

@Injectable()
class BlogOptionsFactory {
  createBlogOptions(): BlogModuleOptions {
    return { jwtSecret: SECRET, jwtExpiresIn: '10m' };
  }
}

@Module({ providers: [BlogOptionsFactory], exports: [BlogOptionsFactory] })
class HostConfigModule {}

describe('BlogModule in a host application (e2e)', () => {
  let app: INestApplication;
  afterEach(() => app?.close());

  it('should serve a mutation and a query through the host GraphQL root', async () => {
    app = await boot(BlogModule.forRoot({ jwtSecret: SECRET }));
    const signUp = await gql(
      app,
      `mutation { signUp(input: {name: "Host User", email: "host@example.com", password: "long enough"}) { token user { id } } }`,
    );
    const { token, user } = signUp.data.signUp;
    const created = await gql(
      app,
      `mutation { createPost(input: {title: "Hi", content: "From host"}) { id } }`,
      token,
    );
    expect(created.data.createPost.id).toBeDefined();
    const read = await gql(app, `{ me { id posts { title author { name } } } }`, `Bearer ${token}`);
    expect(read.data.me).toEqual({
      id: user.id,
      posts: [{ title: 'Hi', author: { name: 'Host User' } }],
    });
  });

  const asyncForms: [string, () => DynamicModule][] = [
    [
      'useFactory',
      () =>
        BlogModule.forRootAsync({ useFactory: () => ({ jwtSecret: SECRET, jwtExpiresIn: '10m' }) }),
    ],
    ['useClass', () => BlogModule.forRootAsync({ useClass: BlogOptionsFactory })],
    [
      'useExisting',
      () =>
        BlogModule.forRootAsync({ imports: [HostConfigModule], useExisting: BlogOptionsFactory }),
    ],
  ];

  it.each(asyncForms)('should take its options from forRootAsync %s', async (_, blog) => {
    app = await boot(blog());
    expect(app.get(BLOG_MODULE_OPTIONS, { strict: false })).toMatchObject({ jwtSecret: SECRET });
    const signUp = await gql(
      app,
      `mutation { signUp(input: {name: "Async", email: "async@example.com", password: "long enough"}) { expiresAt user { id } } }`,
    );
    const { expiresAt, user } = signUp.data.signUp;
    const lifetime = new Date(expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(9 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000);
    const token = forgeToken({ sub: user.id, exp: nowInSeconds() + 60 }, { secret: SECRET });
    expect((await gql(app, `{ me { id } }`, token)).data.me).toEqual({ id: user.id });
  });
});
