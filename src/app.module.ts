import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, ConfigType } from '@nestjs/config';
import { GraphQLModule } from '@nestjs/graphql';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Request } from 'express';
import { BlogModule, formatGraphQLError } from './blog';
import {
  appConfig,
  authConfig,
  databaseConfig,
  graphqlConfig,
  validateEnvironment,
} from './config';
import { buildDataSourceOptions, DataSourceOverrides } from './database/data-source-options';
import { DemoSeedService } from './database/seed/demo-seed.service';
import { HealthModule } from './health/health.module';

/**
 * The standalone service: validated configuration, the TypeORM and GraphQL roots, the blog and
 * the health check. `forRoot` takes test-only overrides of the data source.
 */
@Module({})
export class AppModule {
  static forRoot(overrides: DataSourceOverrides = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          cache: true,
          load: [appConfig, databaseConfig, authConfig, graphqlConfig],
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
          inject: [graphqlConfig.KEY],
          useFactory: (graphql: ConfigType<typeof graphqlConfig>) => ({
            path: '/graphql',
            autoSchemaFile: graphql.schemaFile || true,
            sortSchema: true,
            introspection: graphql.introspection,
            playground: false,
            includeStacktraceInErrorResponses: false,
            formatError: formatGraphQLError,
            context: ({ req }: { req: Request }) => ({ req }),
          }),
        }),
        BlogModule.forRootAsync({
          inject: [authConfig.KEY],
          useFactory: (auth: ConfigType<typeof authConfig>) => ({
            jwtSecret: auth.jwtSecret,
            jwtExpiresIn: auth.jwtExpiresIn,
          }),
        }),
        HealthModule,
      ],
      providers: [DemoSeedService],
    };
  }
}
