import type { IncomingHttpHeaders } from 'node:http';

import Negotiator from 'negotiator';

import { IdeAssets } from './ide-assets';
import {
  FEED_QUERY,
  IDE_ASSET_CSP,
  IDE_NOT_BUILT,
  ideTabs,
  IdePageConfig,
  renderIdePage,
} from './ide-page';

/** The GraphQL endpoint the page talks to; the built files live under it (IDE_ASSETS_PATH). */
export const IDE_ENDPOINT = '/graphql';

/** What a GraphQL client accepts; a browser's navigation prefers text/html to all of them. */
const MEDIA_TYPES = ['application/graphql-response+json', 'application/json', 'text/html'];

/** The parts of an HTTP request that decide what the IDE answers. */
export interface IdeRequest {
  method: string;
  headers: IncomingHttpHeaders;
}

/** An answer for any HTTP framework to send as it is. */
export interface IdeReply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** A browser opening the endpoint, as opposed to a GraphQL client sending a GET operation. */
export function asksForHtml(request: IdeRequest): boolean {
  return (
    request.method === 'GET' &&
    new Negotiator({ headers: request.headers }).mediaType(MEDIA_TYPES) === 'text/html'
  );
}

/**
 * The IDE's answers, whatever serves them: the page for a browser at the endpoint, and the
 * built files. The standalone service sends them from Fastify hooks (ide-http.ts), a host from
 * a middleware (ide-middleware.ts).
 */
export class IdeResponder {
  /** `tabs`: the queries of the tabs a first visit opens with. */
  constructor(
    readonly assets: IdeAssets = new IdeAssets(),
    private readonly tabs: string[] = ideTabs(),
  ) {}

  /** The page with a fresh nonce; 503 and what to run when the build has not run. */
  page(initialQuery?: unknown): IdeReply {
    const headers: Record<string, string> = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      vary: 'accept',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    };
    if (!this.assets.built) return { status: 503, headers, body: IDE_NOT_BUILT };
    const config: IdePageConfig = {
      endpoint: IDE_ENDPOINT,
      defaultQuery: FEED_QUERY,
      tabs: this.tabs,
    };
    if (typeof initialQuery === 'string' && initialQuery.trim()) config.initialQuery = initialQuery;
    const page = renderIdePage(config);
    headers['content-security-policy'] = page.contentSecurityPolicy;
    return { status: 200, headers, body: page.html };
  }

  /** One built file by its name under IDE_ASSETS_PATH, gzip-encoded when the client takes it. */
  async asset(name: string, request: IdeRequest): Promise<IdeReply> {
    const gzip = new Negotiator({ headers: request.headers }).encoding(['gzip']) === 'gzip';
    const asset = await this.assets.get(name, gzip);
    if (!asset) {
      return {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: 'Not found\n',
      };
    }
    const headers: Record<string, string> = {
      'content-type': asset.contentType,
      etag: asset.etag,
      'cache-control': 'no-cache',
      vary: 'accept-encoding',
      'x-content-type-options': 'nosniff',
      'content-security-policy': IDE_ASSET_CSP,
    };
    if (asset.gzip) headers['content-encoding'] = 'gzip';
    const known = request.headers['if-none-match']?.split(',').map((tag) => tag.trim());
    if (known?.includes(asset.etag)) return { status: 304, headers, body: '' };
    return { status: 200, headers, body: asset.body };
  }
}
