import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { GraphQLSchemaHost } from '@nestjs/graphql';
import { Test } from '@nestjs/testing';
import {
  buildSchema,
  findBreakingChanges,
  findDangerousChanges,
  GraphQLSchema,
  lexicographicSortSchema,
  printSchema,
} from 'graphql';

import { AppModule } from '../src/app.module';

export const COMMITTED_SCHEMA_FILE = resolve(__dirname, '..', 'schema.gql');
export const CONTRACT_FILE = resolve(
  process.env.CONTRACT_FILE ?? resolve(__dirname, '..', '..', 'shared', 'api.graphql'),
);

/** The schema the service generates, built by booting the app on an in-memory database. */
export async function generateSchema(): Promise<GraphQLSchema> {
  const saved = { ...process.env };
  Object.assign(process.env, {
    NODE_ENV: 'test',
    DATABASE_URL: 'sqlite::memory:',
    JWT_SECRET: process.env.JWT_SECRET ?? 'schema-generation-only-secret-0123456789',
    SEED_DEMO: 'false',
    // The committed schema and the contract check are of every feature.
    BLOG_FEATURES: 'all',
  });
  try {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot()] }).compile();
    const app = moduleRef.createNestApplication({ logger: ['error'] });
    await app.init();
    const { schema } = app.get(GraphQLSchemaHost);
    await app.close();
    return schema;
  } finally {
    process.env = saved;
  }
}

/** The SDL as committed to schema.gql: sorted, with the generator's header. */
export function printCommittedForm(schema: GraphQLSchema): string {
  const header = [
    '# ------------------------------------------------------',
    '# THIS FILE WAS AUTOMATICALLY GENERATED (DO NOT MODIFY)',
    '# ------------------------------------------------------',
  ].join('\n');
  return `${header}\n\n${printSchema(lexicographicSortSchema(schema))}`;
}

export function loadSdl(file: string): GraphQLSchema | null {
  return existsSync(file) ? buildSchema(readFileSync(file, 'utf8')) : null;
}

export interface SchemaComparison {
  breaking: string[];
  dangerous: string[];
}

/** What `next` breaks (or risks) for clients of `previous`, as graphql-js sees it. */
export function compareSchemas(previous: GraphQLSchema, next: GraphQLSchema): SchemaComparison {
  return {
    breaking: findBreakingChanges(previous, next).map((c) => `${c.type}: ${c.description}`),
    dangerous: findDangerousChanges(previous, next).map((c) => `${c.type}: ${c.description}`),
  };
}
