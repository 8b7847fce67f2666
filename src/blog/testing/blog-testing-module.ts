import { Provider } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { GraphQLError } from 'graphql';
import { DataSource } from 'typeorm';

import { Sql } from '../common/sql';
import { BlogEvents } from '../events/blog-events';
import { migrations } from '../migrations';
import { PostSearchIndex } from '../posts/post-search-index';
import { Role, roleOf } from '../users/roles';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

/** A hand-written BlogEvents: it records what would have been published, and publishes nothing. */
export class RecordedBlogEvents implements Pick<
  BlogEvents,
  'postPublished' | 'commentAdded' | 'commentUpdated' | 'postLikesChanged'
> {
  readonly recorded: string[] = [];

  postPublished(postId: string): void {
    this.recorded.push(`postPublished ${postId}`);
  }

  commentAdded(commentId: string, postId: string): void {
    this.recorded.push(`commentAdded ${commentId} on ${postId}`);
  }

  commentUpdated(commentId: string, postId: string, removed?: object): void {
    this.recorded.push(`commentUpdated ${commentId} on ${postId}${removed ? ' (removed)' : ''}`);
  }

  postLikesChanged(postId: string): void {
    this.recorded.push(`postLikesChanged ${postId}`);
  }
}

export interface BlogTestingModule {
  moduleRef: TestingModule;
  dataSource: DataSource;
  events: RecordedBlogEvents;
  /**
   * A new user of `role` (an author by default; the names of the roles before issue 65, `user`
   * and `admin`, still do), through UsersService (which must be among the providers).
   */
  signUp(role?: Role | 'user' | 'admin'): Promise<User>;
  close(): Promise<void>;
}

/**
 * A testing module of `providers` on a fresh in-memory SQLite database that the blog's own
 * migrations created, with the real {@link Sql}, {@link PostSearchIndex} and
 * {@link RecordedBlogEvents}. It boots no HTTP: specs call the services directly.
 */
export async function createBlogTestingModule(providers: Provider[]): Promise<BlogTestingModule> {
  const dataSource = new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    migrations,
    migrationsTransactionMode: 'each',
  });
  await dataSource.initialize();
  await dataSource.runMigrations();
  const events = new RecordedBlogEvents();
  const moduleRef = await Test.createTestingModule({
    providers: [
      { provide: getDataSourceToken(), useValue: dataSource },
      { provide: BlogEvents, useValue: events },
      Sql,
      PostSearchIndex,
      ...providers,
    ],
  }).compile();
  let users = 0;
  return {
    moduleRef,
    dataSource,
    events,
    async signUp(role: Role | 'user' | 'admin' = Role.AUTHOR) {
      users += 1;
      return moduleRef.get(UsersService).create({
        name: `User ${users}`,
        email: `user${users}@example.com`,
        handle: `user_${users}`,
        passwordHash: 'not checked here',
        role: roleOf(role),
      });
    },
    async close() {
      await moduleRef.close();
      await dataSource.destroy();
    },
  };
}

/** The code, and the field when there is one, of the GraphQL error that `promise` rejects with. */
export async function refusalOf(
  promise: Promise<unknown>,
): Promise<{ code: unknown; field?: unknown }> {
  const error = await promise.then(
    () => new Error('it was not refused'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof GraphQLError)) throw error;
  const { code, field } = error.extensions;
  return field === undefined ? { code } : { code, field };
}
