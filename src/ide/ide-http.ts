import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply } from 'fastify';

import { IDE_ASSETS_PATH, ideTabs } from './ide-page';
import { asksForHtml, IDE_ENDPOINT, IdeReply, IdeResponder } from './ide-responder';
import { graphqlConfig } from '../config/graphql.config';
import { ideConfig } from '../config/ide.config';

/**
 * GraphiQL at `GET /graphql` for browsers, and its built files under `/graphql/ide/`. Apollo owns
 * the `/graphql` route, so the page is answered from a hook of that route before Apollo's
 * handler runs, and only when the request prefers HTML: POST, and GET operations of clients
 * that accept JSON (`?query=…`, `?documentId=…`), reach Apollo as before. Off (no hook, no
 * route) unless `GRAPHIQL` turns it on.
 */
@Injectable()
export class IdeHttp implements OnModuleInit {
  private readonly logger = new Logger('IDE');

  constructor(
    @Inject(ideConfig.KEY) private readonly config: ConfigType<typeof ideConfig>,
    @Inject(graphqlConfig.KEY) private readonly graphql: ConfigType<typeof graphqlConfig>,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!this.config.enabled || adapter?.getType() !== 'fastify') return;
    const ide = new IdeResponder(undefined, ideTabs(this.graphql.features));
    if (!ide.assets.built) {
      this.logger.warn(`GRAPHIQL is on but ${ide.assets.dir} is not built: run npm run build`);
    }
    const fastify = adapter.getInstance<FastifyInstance>();
    fastify.addHook('preHandler', (request, reply, done) => {
      if (request.routeOptions.url !== IDE_ENDPOINT || !asksForHtml(request)) return done();
      send(reply, ide.page((request.query as { query?: unknown }).query));
    });
    fastify.get(`${IDE_ASSETS_PATH}*`, async (request, reply) => {
      const name = (request.params as { '*': string })['*'];
      return send(reply, await ide.asset(name, request));
    });
  }
}

function send(reply: FastifyReply, answer: IdeReply): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}
