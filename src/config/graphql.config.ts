import { registerAs } from '@nestjs/config';
import { loadAppConfig } from './app.config';
import { readBoolean, readInteger, readString } from './env';

export interface GraphqlConfig {
  introspection: boolean;
  /** The highest estimated cost of one operation. */
  maxComplexity: number;
  /** Where development writes the generated SDL; false keeps it in memory. */
  schemaFile: string | false;
}

export function loadGraphqlConfig(env: NodeJS.ProcessEnv = process.env): GraphqlConfig {
  const { nodeEnv } = loadAppConfig(env);
  return {
    introspection: readBoolean(env, 'GRAPHQL_INTROSPECTION', nodeEnv !== 'production'),
    maxComplexity: readInteger(env, 'GRAPHQL_MAX_COMPLEXITY', 20_000, { min: 1, max: 10_000_000 }),
    schemaFile:
      nodeEnv === 'development' ? readString(env, 'GRAPHQL_SCHEMA_FILE', 'schema.gql') : false,
  };
}

export const graphqlConfig = registerAs('graphql', () => loadGraphqlConfig());
