import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

import { IdeAssets } from './ide-assets';
import {
  FEED_QUERY,
  IDE_ASSET_CSP,
  IDE_ASSETS_PATH,
  IDE_NOT_BUILT,
  IdePageConfig,
  renderIdePage,
} from './ide-page';
import { ideConfig } from '../config/ide.config';

const ENDPOINT = '/graphql';

/** What a GraphQL client accepts; a browser's navigation prefers text/html to all of them. */
const MEDIA_TYPES = ['application/graphql-response+json', 'application/json', 'text/html'];

/** A browser opening the endpoint, as opposed to a GraphQL client sending a GET operation. */
export function asksForHtml(request: FastifyRequest): boolean {
  return (
    request.method === 'GET' &&
    new Negotiator({ headers: request.headers }).mediaType(MEDIA_TYPES) === 'text/html'
  );
}

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
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!this.config.enabled || adapter?.getType() !== 'fastify') return;
    const assets = new IdeAssets();
    if (!assets.built) {
      this.logger.warn(`GRAPHIQL is on but ${assets.dir} is not built: run npm run build`);
    }
    const fastify = adapter.getInstance<FastifyInstance>();
    fastify.addHook('preHandler', (request, reply, done) => {
      if (request.routeOptions.url !== ENDPOINT || !asksForHtml(request)) return done();
      this.sendPage(request, reply, assets.built);
    });
    fastify.get(`${IDE_ASSETS_PATH}*`, (request, reply) => this.sendAsset(assets, request, reply));
  }

  private sendPage(request: FastifyRequest, reply: FastifyReply, built: boolean): void {
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('vary', 'accept')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer');
    if (!built) {
      reply.code(503).send(IDE_NOT_BUILT);
      return;
    }
    const { query } = request.query as { query?: unknown };
    const config: IdePageConfig = { endpoint: ENDPOINT, defaultQuery: FEED_QUERY };
    if (typeof query === 'string' && query.trim()) config.initialQuery = query;
    const page = renderIdePage(config);
    reply.header('content-security-policy', page.contentSecurityPolicy).send(page.html);
  }

  private async sendAsset(
    assets: IdeAssets,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Buffer | string> {
    const name = (request.params as { '*': string })['*'];
    const gzip = new Negotiator({ headers: request.headers }).encoding(['gzip']) === 'gzip';
    const asset = await assets.get(name, gzip);
    if (!asset) {
      reply.code(404).header('content-type', 'text/plain; charset=utf-8');
      return 'Not found\n';
    }
    reply
      .header('content-type', asset.contentType)
      .header('etag', asset.etag)
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', IDE_ASSET_CSP);
    if (asset.gzip) reply.header('content-encoding', 'gzip');
    const known = request.headers['if-none-match']?.split(',').map((tag) => tag.trim());
    if (known?.includes(asset.etag)) {
      reply.code(304);
      return '';
    }
    return asset.body;
  }
}
