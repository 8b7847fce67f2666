import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

import { FeedFormat } from './feed-documents';
import {
  FeedScope,
  SyndicationDocument,
  SyndicationNotFound,
  SyndicationService,
} from './syndication.service';
import { isNotModified, RequestHeaders } from '../common/conditional-get';
import { ErrorCode } from '../common/errors';

/** What the handlers read of a request, on Fastify and on Express alike. */
interface HttpRequest {
  headers: RequestHeaders;
}

/**
 * The feeds and the sitemap as plain HTTP routes beside `/graphql`, on the host's HTTP adapter
 * (Fastify or Express): `/feed.xml` (RSS 2.0), `/feed.atom` (Atom 1.0) and `/feed.json` (JSON
 * Feed 1.1), the same under `/authors/{handle}/` and `/tags/{slug}/`, and `/sitemap.xml` with
 * its `/sitemaps/posts-YYYY-MM.xml`. Each answer has an `ETag` and a `Last-Modified`, and a
 * conditional GET that still matches gets 304 without a body. Without the site's URL, and for
 * an unknown author, tag or sitemap, the answer is 404 with a JSON error.
 */
@Controller()
export class SyndicationController {
  constructor(
    private readonly syndication: SyndicationService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @Get('feed.xml')
  rss(@Req() request: HttpRequest, @Res() response: unknown) {
    return this.feed({}, 'rss', request, response);
  }

  @Get('feed.atom')
  atom(@Req() request: HttpRequest, @Res() response: unknown) {
    return this.feed({}, 'atom', request, response);
  }

  @Get('feed.json')
  json(@Req() request: HttpRequest, @Res() response: unknown) {
    return this.feed({}, 'json', request, response);
  }

  @Get('authors/:handle/feed.xml')
  authorRss(
    @Param('handle') author: string,
    @Req() request: HttpRequest,
    @Res() response: unknown,
  ) {
    return this.feed({ author }, 'rss', request, response);
  }

  @Get('authors/:handle/feed.atom')
  authorAtom(
    @Param('handle') author: string,
    @Req() request: HttpRequest,
    @Res() response: unknown,
  ) {
    return this.feed({ author }, 'atom', request, response);
  }

  @Get('authors/:handle/feed.json')
  authorJson(
    @Param('handle') author: string,
    @Req() request: HttpRequest,
    @Res() response: unknown,
  ) {
    return this.feed({ author }, 'json', request, response);
  }

  @Get('tags/:slug/feed.xml')
  tagRss(@Param('slug') tag: string, @Req() request: HttpRequest, @Res() response: unknown) {
    return this.feed({ tag }, 'rss', request, response);
  }

  @Get('tags/:slug/feed.atom')
  tagAtom(@Param('slug') tag: string, @Req() request: HttpRequest, @Res() response: unknown) {
    return this.feed({ tag }, 'atom', request, response);
  }

  @Get('tags/:slug/feed.json')
  tagJson(@Param('slug') tag: string, @Req() request: HttpRequest, @Res() response: unknown) {
    return this.feed({ tag }, 'json', request, response);
  }

  @Get('sitemap.xml')
  sitemapIndex(@Req() request: HttpRequest, @Res() response: unknown) {
    return this.answer(this.syndication.sitemapIndex(), request, response);
  }

  @Get('sitemaps/:file')
  sitemap(@Param('file') file: string, @Req() request: HttpRequest, @Res() response: unknown) {
    return this.answer(this.syndication.sitemap(file), request, response);
  }

  private feed(scope: FeedScope, format: FeedFormat, request: HttpRequest, response: unknown) {
    return this.answer(this.syndication.feed(scope, format), request, response);
  }

  /** Sends the document, 304 when the request's validators still match it, or the 404. */
  private async answer(
    document: Promise<SyndicationDocument>,
    request: HttpRequest,
    response: unknown,
  ): Promise<unknown> {
    const http = this.adapterHost.httpAdapter;
    let found: SyndicationDocument;
    try {
      found = await document;
    } catch (error) {
      if (!(error instanceof SyndicationNotFound)) throw error;
      http.setHeader(response, 'Content-Type', 'application/json; charset=utf-8');
      const body = { error: { code: ErrorCode.NotFound, message: error.message } };
      return http.reply(response, body, 404);
    }
    http.setHeader(response, 'ETag', found.etag);
    http.setHeader(response, 'Last-Modified', found.lastModified.toUTCString());
    // Caches may keep a copy, and ask each time whether it is still current.
    http.setHeader(response, 'Cache-Control', 'public, no-cache');
    if (isNotModified(found, request.headers)) return http.reply(response, undefined, 304);
    http.setHeader(response, 'Content-Type', found.contentType);
    return http.reply(response, found.body, 200);
  }
}
