import type { IncomingMessage, ServerResponse } from 'node:http';

import type { BlogFeatureSwitches } from '../blog';
import { IDE_ASSETS_PATH, ideTabs } from './ide-page';
import { asksForHtml, IDE_ENDPOINT, IdeReply, IdeResponder } from './ide-responder';

/** A Connect-style handler, as Express and Nest's `MiddlewareConsumer` take one. */
export type IdeMiddleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * The project's offline IDE for a host application on Express (or anything that takes
 * Connect middleware): the page at `GET /graphql` for a browser, the built files under
 * `/graphql/ide/`, and `next()` for everything else, GraphQL requests included. Mount it before
 * the GraphQL route, and turn off the GraphQL server's own landing page (`graphiql: false`).
 * `features`: the blog's, so that the pre-filled tabs use only what the schema has.
 */
export function ideMiddleware(options: { features?: BlogFeatureSwitches } = {}): IdeMiddleware {
  const ide = new IdeResponder(undefined, ideTabs(options.features));
  return (request, response, next) => {
    // Express strips the path a middleware is mounted at from `url`; `originalUrl` keeps it.
    const path = (request as { originalUrl?: string }).originalUrl ?? request.url ?? '/';
    const url = new URL(path, 'http://host');
    const ideRequest = { method: request.method ?? 'GET', headers: request.headers };
    if (url.pathname === IDE_ENDPOINT && asksForHtml(ideRequest)) {
      send(response, ide.page(url.searchParams.get('query') ?? undefined));
      return;
    }
    if (request.method === 'GET' && url.pathname.startsWith(IDE_ASSETS_PATH)) {
      const name = url.pathname.slice(IDE_ASSETS_PATH.length);
      ide.asset(name, ideRequest).then((answer) => send(response, answer), next);
      return;
    }
    next();
  };
}

function send(response: ServerResponse, answer: IdeReply): void {
  response.writeHead(answer.status, answer.headers).end(answer.body);
}
