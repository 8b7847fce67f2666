import { registerAs } from '@nestjs/config';

import { BLOG_FEATURE_NAMES } from '../blog';
import type { BlogFeatureSwitches, CompiledExecutionOptions } from '../blog';
import { loadAppConfig } from './app.config';
import { InvalidEnvironmentError, readBoolean, readInteger, readString } from './env';
import { SETTINGS } from './settings.schema';

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
  const introspection = readBoolean(env, SETTINGS.GRAPHQL_INTROSPECTION, nodeEnv !== 'production');
  return {
    features: readBlogFeatures(env),
    introspection,
    hideSchemaDetails: !introspection,
    maxComplexity: readInteger(env, SETTINGS.GRAPHQL_MAX_COMPLEXITY),
    maxExpensiveFields: readInteger(env, SETTINGS.GRAPHQL_MAX_EXPENSIVE_FIELDS),
    maxResponseBytes: readInteger(env, SETTINGS.GRAPHQL_MAX_RESPONSE_BYTES),
    searchRankWindow: readInteger(env, SETTINGS.SEARCH_RANK_WINDOW),
    documentLimits: {
      maxDepth: readInteger(env, SETTINGS.GRAPHQL_MAX_DEPTH),
      maxAliases: readInteger(env, SETTINGS.GRAPHQL_MAX_ALIASES),
      maxDirectives: readInteger(env, SETTINGS.GRAPHQL_MAX_DIRECTIVES),
      maxTokens: readInteger(env, SETTINGS.GRAPHQL_MAX_TOKENS),
    },
    jit: readBoolean(env, SETTINGS.GRAPHQL_JIT)
      ? {
          compileAfter: readInteger(env, SETTINGS.GRAPHQL_JIT_COMPILE_AFTER),
          maxDocuments: readInteger(env, SETTINGS.GRAPHQL_JIT_MAX_DOCUMENTS),
          maxBytes: readInteger(env, SETTINGS.GRAPHQL_JIT_MAX_BYTES),
          maxSelections: readInteger(env, SETTINGS.GRAPHQL_JIT_MAX_SELECTIONS),
          compilesPerMinute: readInteger(env, SETTINGS.GRAPHQL_JIT_COMPILES_PER_MINUTE),
        }
      : false,

    schemaFile: nodeEnv === 'development' ? readString(env, SETTINGS.GRAPHQL_SCHEMA_FILE) : false,
    websocket: {
      maxPayloadBytes: readInteger(env, SETTINGS.WS_MAX_PAYLOAD_BYTES),
      maxSubscriptionsPerConnection: readInteger(env, SETTINGS.WS_MAX_SUBSCRIPTIONS),
      maxSubscriptionsPerClient: readInteger(env, SETTINGS.WS_MAX_SUBSCRIPTIONS_PER_CLIENT),
      maxSubscriptions: readInteger(env, SETTINGS.WS_MAX_SUBSCRIPTIONS_TOTAL),
      maxConnectionsPerClient: readInteger(env, SETTINGS.WS_MAX_CONNECTIONS_PER_CLIENT),
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
  const raw = readString(env, SETTINGS.BLOG_FEATURES).toLowerCase();
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
