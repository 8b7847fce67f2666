import { Provider } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import { Sql } from '../common/sql';
import { BlogEvents } from '../events/blog-events';
import { migrations } from '../migrations';

/** A hand-written BlogEvents: it records what would have been published, and publishes nothing. */
export class RecordedBlogEvents implements Pick<
  BlogEvents,
  'postPublished' | 'commentAdded' | 'postLikesChanged'
> {
  readonly recorded: string[] = [];

  postPublished(postId: string): void {
    this.recorded.push(`postPublished ${postId}`);
  }

  commentAdded(commentId: string, postId: string): void {
    this.recorded.push(`commentAdded ${commentId} on ${postId}`);
  }

  postLikesChanged(postId: string): void {
    this.recorded.push(`postLikesChanged ${postId}`);
  }
}

export interface BlogTestingModule {
  moduleRef: TestingModule;
  dataSource: DataSource;
  events: RecordedBlogEvents;
  close(): Promise<void>;
}

/**
 * A testing module of `providers` on a fresh in-memory SQLite database that the blog's own
 * migrations created, with the real {@link Sql} and {@link RecordedBlogEvents}. It boots no HTTP:
 * specs call the services directly.
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
      ...providers,
    ],
  }).compile();
  return {
    moduleRef,
    dataSource,
    events,
    async close() {
      await moduleRef.close();
      await dataSource.destroy();
    },
  };
}
