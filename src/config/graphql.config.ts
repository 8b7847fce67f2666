import { registerAs } from '@nestjs/config';

import { BLOG_FEATURE_NAMES } from '../blog';
import type { BlogFeatureSwitches, CompiledExecutionOptions } from '../blog';
import { loadAppConfig } from './app.config';
import {
  InvalidEnvironmentError,
  readBoolean,
  readInteger,
  readOptionalString,
  readString,
} from './env';

export interface GraphqlConfig {
  /** The blog's optional features, each switched on or off. */
  features: Required<BlogFeatureSwitches>;
  introspection: boolean;
  /** Hide "Did you mean" suggestions from errors; on wherever introspection is off. */
  hideSchemaDetails: boolean;
  /** The highest estimated cost of one operation. */
  maxComplexity: number;
  /** Expensive fields (searches, counts, filters by tags) that one operation may run. */
  maxExpensiveFields: number;
  /** The largest answer of one operation (and of one subscription event), in bytes of JSON. */
  maxResponseBytes: number;
  /** How many of the most recently written posts that match a search are ranked. */
  searchRankWindow: number;
  /** Shape limits of one document. */
  documentLimits: {
    maxDepth: number;
    maxAliases: number;
    maxDirectives: number;
    maxTokens: number;
  };

  /** Compiled execution of repeated queries (graphql-jit), or false for graphql-js only. */
  jit: CompiledExecutionOptions | false;

  /** Where development writes the generated SDL; false keeps it in memory. */
  schemaFile: string | false;
  /** Limits of the graphql-ws endpoint. */
  websocket: {
    /** The largest message a client may send, in bytes. */
    maxPayloadBytes: number;
    /** Subscriptions open at once on one connection. */
    maxSubscriptionsPerConnection: number;
    /** Subscriptions open at once from one client address, on all its connections. */
    maxSubscriptionsPerClient: number;
    /** Subscriptions open at once on this instance. */
    maxSubscriptions: number;
    /** Connections open at once from one client address. */
    maxConnectionsPerClient: number;
  };
}

export function loadGraphqlConfig(env: NodeJS.ProcessEnv = process.env): GraphqlConfig {
  const { nodeEnv } = loadAppConfig(env);
  const introspection = readBoolean(env, 'GRAPHQL_INTROSPECTION', nodeEnv !== 'production');
  return {
    features: readBlogFeatures(env),
    introspection,
    hideSchemaDetails: !introspection,
    maxComplexity: readInteger(env, 'GRAPHQL_MAX_COMPLEXITY', 20_000, { min: 1, max: 10_000_000 }),
    maxExpensiveFields: readInteger(env, 'GRAPHQL_MAX_EXPENSIVE_FIELDS', 3, { min: 0, max: 1_000 }),
    maxResponseBytes: readInteger(env, 'GRAPHQL_MAX_RESPONSE_BYTES', 4 * 1024 * 1024, {
      min: 1024,
      max: 2 ** 30,
    }),
    searchRankWindow: readInteger(env, 'SEARCH_RANK_WINDOW', 1_000, { min: 1, max: 1_000_000 }),
    documentLimits: {
      maxDepth: readInteger(env, 'GRAPHQL_MAX_DEPTH', 12, { min: 1, max: 1_000 }),
      maxAliases: readInteger(env, 'GRAPHQL_MAX_ALIASES', 30, { min: 0, max: 100_000 }),
      maxDirectives: readInteger(env, 'GRAPHQL_MAX_DIRECTIVES', 50, { min: 0, max: 100_000 }),
      maxTokens: readInteger(env, 'GRAPHQL_MAX_TOKENS', 15_000, { min: 100, max: 10_000_000 }),
    },
    jit: readBoolean(env, 'GRAPHQL_JIT', true)
      ? {
          compileAfter: readInteger(env, 'GRAPHQL_JIT_COMPILE_AFTER', 4, {
            min: 0,
            max: 1_000_000,
          }),
          maxDocuments: readInteger(env, 'GRAPHQL_JIT_MAX_DOCUMENTS', 500, {
            min: 1,
            max: 100_000,
          }),
          maxBytes: readInteger(env, 'GRAPHQL_JIT_MAX_BYTES', 32 * 1024 * 1024, {
            min: 1024,
            max: 2 ** 31,
          }),
          maxSelections: readInteger(env, 'GRAPHQL_JIT_MAX_SELECTIONS', 250, {
            min: 1,
            max: 10_000,
          }),
          compilesPerMinute: readInteger(env, 'GRAPHQL_JIT_COMPILES_PER_MINUTE', 60, {
            min: 1,
            max: 100_000,
          }),
        }
      : false,

    schemaFile:
      nodeEnv === 'development' ? readString(env, 'GRAPHQL_SCHEMA_FILE', 'schema.gql') : false,
    websocket: {
      maxPayloadBytes: readInteger(env, 'WS_MAX_PAYLOAD_BYTES', 1_048_576, {
        min: 1024,
        max: 16_777_216,
      }),
      maxSubscriptionsPerConnection: readInteger(env, 'WS_MAX_SUBSCRIPTIONS', 50, {
        min: 1,
        max: 10_000,
      }),
      maxSubscriptionsPerClient: readInteger(env, 'WS_MAX_SUBSCRIPTIONS_PER_CLIENT', 500, {
        min: 1,
        max: 1_000_000,
      }),
      maxSubscriptions: readInteger(env, 'WS_MAX_SUBSCRIPTIONS_TOTAL', 10_000, {
        min: 1,
        max: 1_000_000,
      }),
      maxConnectionsPerClient: readInteger(env, 'WS_MAX_CONNECTIONS_PER_CLIENT', 100, {
        min: 1,
        max: 100_000,
      }),
    },
  };
}

/**
 * BLOG_FEATURES: the optional features served, as a comma-separated list of their names, or
 * `all` (the default) or `none`.
 */
export function readBlogFeatures(
  env: NodeJS.ProcessEnv = process.env,
): Required<BlogFeatureSwitches> {
  const raw = readOptionalString(env, 'BLOG_FEATURES')?.toLowerCase() ?? 'all';
  const known: readonly string[] = BLOG_FEATURE_NAMES;
  const names =
    raw === 'all' ? known : raw === 'none' ? [] : raw.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!known.includes(name)) {
      throw new InvalidEnvironmentError(
        'BLOG_FEATURES',
        `"${name}" is not a feature; expected all, none or a comma-separated list of ${known.join(', ')}`,
      );
    }
  }
  return {
    search: names.includes('search'),
    tags: names.includes('tags'),
    notifications: names.includes('notifications'),
    bookmarks: names.includes('bookmarks'),
  };
}

export const graphqlConfig = registerAs('graphql', () => loadGraphqlConfig());
