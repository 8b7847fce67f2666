import { loadAppConfig } from './app.config';
import { loadAuthConfig } from './auth.config';
import { loadCorsConfig } from './cors.config';
import { loadDatabaseConfig } from './database.config';
import { loadGraphqlConfig } from './graphql.config';
import { loadHttpConfig } from './http.config';
import { loadIdeConfig } from './ide.config';
import { loadImagesConfig } from './images.config';
import { loadMailConfig } from './mail.config';
import { loadObservabilityConfig } from './observability.config';
import { loadRedisConfig } from './redis.config';
import { loadShutdownConfig } from './shutdown.config';
import { loadSiteConfig } from './site.config';
import { loadTrustedDocumentsConfig } from './trusted-documents.config';
import { loadWebhooksConfig } from './webhooks.config';

export * from './app.config';
export * from './auth.config';
export * from './database.config';
export * from './env';
export * from './graphql.config';
export * from './http.config';
export * from './images.config';
export * from './mail.config';
export * from './observability.config';
export * from './redis.config';
export * from './shutdown.config';
export * from './site.config';
export * from './trusted-documents.config';
export * from './webhooks.config';

/** Every namespace at once: used to fail fast at start-up with the bad variable's name. */
export function validateEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  loadAppConfig(env);
  loadDatabaseConfig(env);
  loadAuthConfig(env);
  loadGraphqlConfig(env);
  loadSiteConfig(env);
  loadImagesConfig(env);
  loadMailConfig(env);
  loadHttpConfig(env);
  loadIdeConfig(env);
  loadCorsConfig(env);
  loadObservabilityConfig(env);
  loadRedisConfig(env);
  loadShutdownConfig(env);
  loadTrustedDocumentsConfig(env);
  loadWebhooksConfig(env);
  return env;
}

export interface RootConfig {
  app: ReturnType<typeof loadAppConfig>;
  database: ReturnType<typeof loadDatabaseConfig>;
  auth: ReturnType<typeof loadAuthConfig>;
  graphql: ReturnType<typeof loadGraphqlConfig>;
  http: ReturnType<typeof loadHttpConfig>;
  observability: ReturnType<typeof loadObservabilityConfig>;
  redis: ReturnType<typeof loadRedisConfig>;
}
