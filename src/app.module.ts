import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigModule, ConfigType } from '@nestjs/config';
import { GraphQLModule } from '@nestjs/graphql';
import { TypeOrmModule } from '@nestjs/typeorm';

import {
  BLOG_MODULE_OPTIONS,
  BlogDateTime,
  blogGraphQLContext,
  BlogModule,
  BlogModuleOptions,
  blogSchemaTransform,
  closePubSub,
  CompiledExecution,
  compiledExecutionPlugin,
  createInMemoryPubSub,
  createRedisPubSub,
  formatGraphQLError,
  limitedResultStringifier,
  RedisThrottlerStorage,
  RedisWriteRateLimitStorage,
  Role,
  S3ImageStorage,
} from './blog';
import {
  appConfig,
  authConfig,
  databaseConfig,
  graphqlConfig,
  httpConfig,
  imagesConfig,
  mailConfig,
  createImageStorage,
  readBlogFeatures,
  redisConfig,
  siteConfig,
  validateEnvironment,
  webhooksConfig,
} from './config';
import { trustedDocumentsConfig } from './config/trusted-documents.config';
import { isPermanentConnectionError } from './database/connection-errors';
import { buildDataSourceOptions, DataSourceOverrides } from './database/data-source-options';
import { DemoSeedService } from './database/seed/demo-seed.service';
import { SqliteCheckpointer } from './database/sqlite-checkpointer';
import { HealthModule } from './health/health.module';
import { clientAddressReader } from './http/client-address';
import { IdeModule } from './ide/ide.module';
import { ObservabilityModule } from './observability';

type ApolloPlugin = NonNullable<ApolloDriverConfig['plugins']>[number];

/** The compiled executor, as a provider so that tests and diagnostics can read its stats. */
@Module({
  providers: [
    {
      provide: CompiledExecution,
      inject: [graphqlConfig.KEY],
      useFactory: (graphql: ConfigType<typeof graphqlConfig>) =>
        new CompiledExecution(graphql.jit || {}),
    },
  ],
  exports: [CompiledExecution],
})
class ExecutionModule {}

/**
 * The standalone service: validated configuration, the TypeORM and GraphQL roots, the blog and
 * the health check. `forRoot` takes test-only overrides of the data source.
 */
@Module({})
export class AppModule implements OnApplicationShutdown {
  constructor(@Inject(BLOG_MODULE_OPTIONS) private readonly blog: BlogModuleOptions) {}

  /** Redis connections would keep the process alive after the app closes. */
  async onApplicationShutdown(): Promise<void> {
    if (this.blog.pubSub) await closePubSub(this.blog.pubSub);
    if (this.blog.throttlerStorage instanceof RedisThrottlerStorage) {
      await this.blog.throttlerStorage.close();
    }
    await this.blog.writeRateLimitStorage?.close?.();
    if (this.blog.images?.storage instanceof S3ImageStorage) this.blog.images.storage.destroy();
  }

  static forRoot(overrides: DataSourceOverrides = {}): DynamicModule {
    // The features decide which resolvers exist, so they are read as the module is defined.
    const features = readBlogFeatures();
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          cache: true,
          load: [
            appConfig,
            databaseConfig,
            authConfig,
            graphqlConfig,
            httpConfig,
            redisConfig,
            siteConfig,
            trustedDocumentsConfig,
            imagesConfig,
            mailConfig,
            webhooksConfig,
          ],
          validate: validateEnvironment,
        }),
        TypeOrmModule.forRootAsync({
          inject: [databaseConfig.KEY],
          useFactory: (database: ConfigType<typeof databaseConfig>) => ({
            ...buildDataSourceOptions(database, { migrationsRun: true, ...overrides }),
            autoLoadEntities: true,
            toRetry: (error: unknown) => !isPermanentConnectionError(error),
          }),
        }),
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          imports: [ExecutionModule],
          inject: [graphqlConfig.KEY, CompiledExecution],
          useFactory: (
            graphql: ConfigType<typeof graphqlConfig>,
            execution: CompiledExecution,
          ) => ({
            path: '/graphql',
            autoSchemaFile: graphql.schemaFile || true,
            sortSchema: true,
            // Nest's DateTime scalar, answering without V8's printf-based toISOString.
            buildSchemaOptions: { scalarsMap: [{ type: Date, scalar: BlogDateTime }] },
            // A feature left out leaves nothing in the schema, the written file included.
            transformSchema: blogSchemaTransform(features),
            transformAutoSchemaFile: true,
            introspection: graphql.introspection,
            hideSchemaDetailsFromClientErrors: graphql.hideSchemaDetails,
            // The parser's share of the document limits; the rest run in OperationRules.
            parseOptions: { maxTokens: graphql.documentLimits.maxTokens },
            playground: false,
            includeStacktraceInErrorResponses: false,
            formatError: formatGraphQLError,
            // The final check of the response limit, on the serialised answer.
            stringifyResult: limitedResultStringifier(graphql.maxResponseBytes),
            // No HTTP cache hints are set, so the per-field cache-control bookkeeping is waste;
            // inline traces are for federated subgraphs, which this schema is not, and Apollo
            // would load their protobuf code for nothing. (The casts bridge @apollo/server's
            // CommonJS and ES-module typings of one class.)
            // Repeated queries run compiled by graphql-jit, answered from a plugin before Apollo
            // would execute them (see compiledExecutionPlugin).
            plugins: [
              ApolloServerPluginCacheControlDisabled() as unknown as ApolloPlugin,
              ApolloServerPluginInlineTraceDisabled() as unknown as ApolloPlugin,
              ...(graphql.jit === false
                ? []
                : [compiledExecutionPlugin(execution) as unknown as ApolloPlugin]),
            ],
            context: blogGraphQLContext,
            // Apollo's drain waits for every socket of the HTTP server: stop it last, once the
            // blog has closed its WebSocket connections.
            stopOnApplicationShutdown: true,
          }),
        }),
        BlogModule.forRootAsync({
          features,
          inject: [
            appConfig.KEY,
            authConfig.KEY,
            redisConfig.KEY,
            graphqlConfig.KEY,
            trustedDocumentsConfig.KEY,
            databaseConfig.KEY,
            siteConfig.KEY,
            imagesConfig.KEY,
            mailConfig.KEY,
            webhooksConfig.KEY,
          ],
          useFactory: (
            app: ConfigType<typeof appConfig>,
            auth: ConfigType<typeof authConfig>,
            redis: ConfigType<typeof redisConfig>,
            graphql: ConfigType<typeof graphqlConfig>,
            trustedDocuments: ConfigType<typeof trustedDocumentsConfig>,
            database: ConfigType<typeof databaseConfig>,
            site: ConfigType<typeof siteConfig>,
            images: ConfigType<typeof imagesConfig>,
            mail: ConfigType<typeof mailConfig>,
            webhooks: ConfigType<typeof webhooksConfig>,
          ) => ({
            jwtSecret: auth.jwtSecret,
            database: {
              statementTimeoutMs: database.statementTimeoutMs,
              sqliteReadWorkers: database.type === 'sqlite' ? database.readWorkers : 0,
            },
            jwtExpiresIn: auth.jwtExpiresIn,
            pubSub: redis.url ? createRedisPubSub(redis.url, redis.prefix) : createInMemoryPubSub(),
            maxQueryComplexity: graphql.maxComplexity,
            maxExpensiveFields: graphql.maxExpensiveFields,
            maxResponseBytes: graphql.maxResponseBytes,
            documentLimits: graphql.documentLimits,
            searchRankWindow: graphql.searchRankWindow,
            site: { url: site.url, postPath: site.postPath, feedContent: site.feedContent },
            images: {
              storage: createImageStorage(images),
              maxBytes: images.maxBytes,
              maxPixels: images.maxPixels,
              quotaBytes: images.quotaBytes,
              processingConcurrency: images.processingConcurrency,
              processingQueue: images.processingQueue,
            },
            mail: {
              ...(mail.smtpUrl ? { smtpUrl: mail.smtpUrl } : { directory: mail.directory }),
              from: mail.from,
              linkBaseUrl: mail.linkBaseUrl,
              passwordResetPath: mail.passwordResetPath,
              emailVerificationPath: mail.emailVerificationPath,
              passwordResetTtl: mail.passwordResetTtl,
              emailVerificationTtl: mail.emailVerificationTtl,
              requireVerifiedEmail: mail.requireVerifiedEmail,
              logLinks: mail.logLinks,
              maxAttempts: mail.maxAttempts,
              retryBaseMs: mail.retryBaseMs,
            },
            webhooks,
            authRateLimit: auth.rateLimit,
            throttlerStorage: redis.url
              ? new RedisThrottlerStorage(redis.url, redis.prefix)
              : undefined,
            writeRateLimit:
              auth.writesPerMinute > 0 ? { limit: auth.writesPerMinute, windowMs: 60_000 } : false,
            newAccountHours: auth.newAccountHours,
            signUpRole: Role[auth.signUpRole],
            moderation: auth.moderation,
            writeRateLimitStorage: redis.url
              ? new RedisWriteRateLimitStorage(redis.url, redis.prefix)
              : undefined,
            hideSchemaDetails: graphql.hideSchemaDetails,
            trustedDocuments,
            subscriptions: {
              ...graphql.websocket,
              // The same client address as Fastify's request.ip, for the per-client cap.
              clientAddress: clientAddressReader(app.trustProxy),
            },
          }),
        }),
        ExecutionModule,
        HealthModule,
        ObservabilityModule,
        IdeModule,
      ],
      providers: [DemoSeedService, SqliteCheckpointer],
    };
  }
}
