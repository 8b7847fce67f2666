import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigModule, ConfigType } from '@nestjs/config';
import { ModuleRef } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  BLOG_MODULE_OPTIONS,
  blogGraphQLContext,
  BlogModule,
  BlogModuleOptions,
  blogSubscriptions,
  closePubSub,
  createInMemoryPubSub,
  createRedisPubSub,
  formatGraphQLError,
  RedisThrottlerStorage,
} from './blog';
import {
  appConfig,
  authConfig,
  databaseConfig,
  graphqlConfig,
  redisConfig,
  validateEnvironment,
} from './config';
import { buildDataSourceOptions, DataSourceOverrides } from './database/data-source-options';
import { DemoSeedService } from './database/seed/demo-seed.service';
import { HealthModule } from './health/health.module';

type ApolloPlugin = NonNullable<ApolloDriverConfig['plugins']>[number];

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
  }

  static forRoot(overrides: DataSourceOverrides = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          cache: true,
          load: [appConfig, databaseConfig, authConfig, graphqlConfig, redisConfig],
          validate: validateEnvironment,
        }),
        TypeOrmModule.forRootAsync({
          inject: [databaseConfig.KEY],
          useFactory: (database: ConfigType<typeof databaseConfig>) => ({
            ...buildDataSourceOptions(database, { migrationsRun: true, ...overrides }),
            autoLoadEntities: true,
          }),
        }),
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          inject: [graphqlConfig.KEY, ModuleRef],
          useFactory: (graphql: ConfigType<typeof graphqlConfig>, moduleRef: ModuleRef) => ({
            path: '/graphql',
            autoSchemaFile: graphql.schemaFile || true,
            sortSchema: true,
            introspection: graphql.introspection,
            playground: false,
            includeStacktraceInErrorResponses: false,
            formatError: formatGraphQLError,
            // No HTTP cache hints are set, so the per-field cache-control bookkeeping is waste.
            // (The cast bridges @apollo/server's CommonJS and ES-module typings of one class.)
            plugins: [ApolloServerPluginCacheControlDisabled() as unknown as ApolloPlugin],
            context: blogGraphQLContext,
            subscriptions: blogSubscriptions(moduleRef),
          }),
        }),
        BlogModule.forRootAsync({
          inject: [authConfig.KEY, redisConfig.KEY, graphqlConfig.KEY],
          useFactory: (
            auth: ConfigType<typeof authConfig>,
            redis: ConfigType<typeof redisConfig>,
            graphql: ConfigType<typeof graphqlConfig>,
          ) => ({
            jwtSecret: auth.jwtSecret,
            jwtExpiresIn: auth.jwtExpiresIn,
            pubSub: redis.url ? createRedisPubSub(redis.url) : createInMemoryPubSub(),
            maxQueryComplexity: graphql.maxComplexity,
            authRateLimit: auth.rateLimit,
            throttlerStorage: redis.url
              ? new RedisThrottlerStorage(redis.url, redis.prefix)
              : undefined,
          }),
        }),
        HealthModule,
      ],
      providers: [DemoSeedService],
    };
  }
}
