import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';

import { IdeHttp } from './ide-http';
import { ideConfig } from '../config/ide.config';

/**
 * The in-browser IDE of the standalone service: GraphiQL at `GET /graphql` for browsers, built
 * from npm packages (scripts/build-ide.mjs) and served by the service itself. `GRAPHIQL` turns
 * it on; BlogModule knows nothing of it.
 */
@Module({
  imports: [ConfigModule.forFeature(ideConfig)],
  providers: [IdeHttp],
})
export class IdeModule {}
