import { AsyncLocalStorage } from 'node:async_hooks';

import type { Logger } from 'pino';

/**
 * The logger of the request being handled (Fastify's child logger, which carries the request
 * id), for code that logs through Nest's `Logger` or TypeORM's logger and knows no request.
 */
export const requestLoggers = new AsyncLocalStorage<Logger>();

/** Requests whose GraphQL operation has its own log line, so the access log skips them. */
export const operationLogged = new WeakSet<object>();
