import { registerAs } from '@nestjs/config';
import { loadAppConfig } from './app.config';
import { readBoolean, readString } from './env';

export interface GraphqlConfig {
  introspection: boolean;
  /** Where development writes the generated SDL; false keeps it in memory. */
  schemaFile: string | false;
}

export function loadGraphqlConfig(env: NodeJS.ProcessEnv = process.env): GraphqlConfig {
  const { nodeEnv } = loadAppConfig(env);
  return {
    introspection: readBoolean(env, 'GRAPHQL_INTROSPECTION', nodeEnv !== 'production'),
    schemaFile:
      nodeEnv === 'development' ? readString(env, 'GRAPHQL_SCHEMA_FILE', 'schema.gql') : false,
  };
}

export const graphqlConfig = registerAs('graphql', () => loadGraphqlConfig());
