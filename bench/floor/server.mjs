/**
 * The framework floor: the least a service on our stack loads and holds. NestJS on Fastify,
 * `@nestjs/graphql` code-first with the Apollo driver, and TypeORM, with one query over two
 * tables: `post(id)` with its author (Q1), and `posts(first)` for the cold start. No guards,
 * limits, validation, logging, metrics, loaders or subscriptions: what it costs is what the
 * frameworks cost, which is the part of our service's memory and start-up that is not ours.
 *
 * Plain JavaScript, so that the bench needs no build of its own: the decorators are applied as
 * functions, and the tables are TypeORM entity schemas. Posts are read as our service reads
 * them (drafts hidden, newest first) and answered in its types, so Q1's bytes are its bytes.
 *
 * Env: DATABASE_URL (`sqlite:<file>` or `postgres://...`), PORT.
 */
import 'reflect-metadata';

import { Session } from 'node:inspector/promises';

import { ApolloDriver } from '@nestjs/apollo';
import { Inject, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  Args,
  Field,
  GraphQLModule,
  ID,
  Int,
  ObjectType,
  Parent,
  Query,
  ResolveField,
  Resolver,
} from '@nestjs/graphql';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { getRepositoryToken, TypeOrmModule } from '@nestjs/typeorm';
import { EntitySchema, IsNull, Not } from 'typeorm';

const url = process.env.DATABASE_URL ?? '';
const postgres = /^postgres(ql)?:/.test(url);
const dateType = postgres ? 'timestamptz' : 'datetime';

class User {}
class Post {}

/** Applies field decorators as TypeScript would: `fields` is `[name, type, options?]`. */
function objectType(target, name, fields) {
  for (const [field, type, options] of fields) Field(type, options)(target.prototype, field);
  ObjectType(name)(target);
}

objectType(User, 'User', [
  ['id', () => ID],
  ['name', () => String],
  ['handle', () => String],
  ['avatar', () => String, { nullable: true }],
  ['createdAt', () => Date],
]);
objectType(Post, 'Post', [
  ['id', () => ID],
  ['title', () => String],
  ['content', () => String],
  ['createdAt', () => Date],
  ['publishedAt', () => Date, { nullable: true }],
]);

const UserSchema = new EntitySchema({
  name: 'User',
  target: User,
  tableName: 'users',
  columns: {
    id: { type: 'varchar', primary: true },
    name: { type: 'varchar' },
    handle: { type: 'varchar' },
    avatar: { type: 'varchar', nullable: true },
    createdAt: { name: 'created_at', type: dateType },
  },
});
const PostSchema = new EntitySchema({
  name: 'Post',
  target: Post,
  tableName: 'posts',
  columns: {
    id: { type: 'varchar', primary: true },
    title: { type: 'varchar' },
    content: { type: 'text' },
    authorId: { name: 'author_id', type: 'varchar' },
    createdAt: { name: 'created_at', type: dateType },
    publishedAt: { name: 'published_at', type: dateType, nullable: true },
  },
});

const published = { publishedAt: Not(IsNull()) };

class PostResolver {
  constructor(posts, users) {
    this.posts = posts;
    this.users = users;
  }

  post(id) {
    return this.posts.findOne({ where: { id, ...published } });
  }

  list(first) {
    return this.posts.find({
      where: published,
      order: { publishedAt: 'DESC', id: 'DESC' },
      take: Math.min(Math.max(first, 0), 100),
    });
  }

  author(post) {
    return this.users.findOneBy({ id: post.authorId });
  }
}

/**
 * Applies a method decorator after its parameters' decorators, with the parameter types that
 * TypeScript's `emitDecoratorMetadata` would record (`types`), as TypeScript does.
 */
function method(target, name, decorator, parameters = [], types = []) {
  Reflect.defineMetadata('design:paramtypes', types, target.prototype, name);
  parameters.forEach((parameter, index) => parameter(target.prototype, name, index));
  decorator(target.prototype, name, Object.getOwnPropertyDescriptor(target.prototype, name));
}

Inject(getRepositoryToken(PostSchema))(PostResolver, undefined, 0);
Inject(getRepositoryToken(UserSchema))(PostResolver, undefined, 1);
method(
  PostResolver,
  'post',
  Query(() => Post, { nullable: true }),
  [Args('id', { type: () => ID })],
  [String],
);
method(
  PostResolver,
  'list',
  Query(() => [Post], { name: 'posts' }),
  [Args('first', { type: () => Int, defaultValue: 20 })],
  [Number],
);
method(
  PostResolver,
  'author',
  ResolveField('author', () => User),
  [Parent()],
  [Post],
);
Resolver(() => Post)(PostResolver);

const entities = [UserSchema, PostSchema];
const database = postgres
  ? { type: 'postgres', url, entities, poolSize: 10 }
  : { type: 'better-sqlite3', database: url.replace(/^sqlite:/, ''), entities };

class FloorModule {}
Module({
  imports: [
    TypeOrmModule.forRoot(database),
    TypeOrmModule.forFeature(entities),
    GraphQLModule.forRoot({ driver: ApolloDriver, autoSchemaFile: true }),
  ],
  providers: [PostResolver],
})(FloorModule);

const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
// The same memory-reducing collection as our service's once it listens (releaseStartUpMemory):
// without it the young generation that start-up grew stays, and the floor would not be one.
const session = new Session();
session.connect();
await session.post('HeapProfiler.collectGarbage');
setImmediate(() => session.disconnect());
