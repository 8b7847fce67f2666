import { randomBytes } from 'node:crypto';

import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { Logger, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { GraphQLModule } from '@nestjs/graphql';
import { TypeOrmModule, TypeOrmModuleOptions } from '@nestjs/typeorm';

import { GreetingsModule } from './greetings/greetings.module';
import {
  blogGraphQLContext,
  blogMigrations,
  BlogFeatureSwitches,
  BlogModule,
  BlogModuleOptions,
  blogSchemaTransform,
  formatGraphQLError,
} from '../../src/blog';
import { ideMiddleware } from '../../src/ide';

/**
 * `DATABASE_URL`: `postgres://...`, or `sqlite:<file>`; unset, an in-memory SQLite database.
 * The blog's migrations run with the host's own (it has none here).
 */
function databaseOptions(config: ConfigService): TypeOrmModuleOptions {
  const url = config.get<string>('DATABASE_URL') ?? 'sqlite::memory:';
  const common = { autoLoadEntities: true, migrations: blogMigrations, migrationsRun: true };
  if (/^postgres(ql)?:\/\//.test(url)) return { type: 'postgres', url, ...common };
  return { type: 'better-sqlite3', database: url.replace(/^sqlite:/, ''), ...common };
}

/** `JWT_SECRET` (32 characters or more); unset, one made up for this process. */
function blogOptions(config: ConfigService): BlogModuleOptions {
  let jwtSecret = config.get<string>('JWT_SECRET');
  if (!jwtSecret) {
    jwtSecret = randomBytes(32).toString('base64url');
    new Logger('HostApp').warn('JWT_SECRET is not set: tokens last until the process ends');
  }
  return { jwtSecret };
}

/**
 * The blog's optional features this host serves: all of them. `{ notifications: false }` would
 * leave notifications out, of the module and of the schema alike.
 */
const features: BlogFeatureSwitches = {};

/**
 * A host application: it owns the configuration, the TypeORM root and the GraphQL root, has a
 * module of its own (greetings), and imports the blog from its public API.
 */
@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true }),
    TypeOrmModule.forRootAsync({ inject: [ConfigService], useFactory: databaseOptions }),
    GraphQLModule.forRoot<ApolloDriverConfig>({
      driver: ApolloDriver,
      autoSchemaFile: true,
      sortSchema: true,
      // Error codes on every error, unexpected ones masked, for the host's fields too.
      formatError: formatGraphQLError,
      // What the blog leaves out goes from the schema too; BlogModule refuses to start otherwise.
      transformSchema: blogSchemaTransform(features),
      // The viewer of each request, read from its authorization header.
      context: blogGraphQLContext,
      // The blog closes its WebSocket connections as the app shuts down; Apollo's drain, which
      // waits for every socket of the HTTP server, must come after that.
      stopOnApplicationShutdown: true,
      // No `subscriptions` here: BlogModule serves graphql-ws on /graphql itself.
      // The project's own IDE (below) instead of Apollo's, which loads from a CDN.
      graphiql: false,
    }),
    BlogModule.forRootAsync({ inject: [ConfigService], useFactory: blogOptions, features }),
    GreetingsModule,
  ],
})
export class HostAppModule implements NestModule {
  constructor(private readonly config: ConfigService) {}

  /** The IDE at GET /graphql for browsers, served by the host itself, so it works offline. */
  configure(consumer: MiddlewareConsumer): void {
    if (this.config.get<string>('NODE_ENV') === 'production') return;
    consumer.apply(ideMiddleware({ features })).forRoutes('graphql', 'graphql/ide/*file');
  }
}
