import { trace } from '@opentelemetry/api';
import pino, { DestinationStream, Logger, LoggerOptions } from 'pino';

import { pathOf } from './paths';
import { isoTimestamp } from '../blog';
import type { ObservabilityConfig } from '../config/observability.config';

/**
 * Never written, at any level: credentials wherever they could appear in a log object, at the
 * top of a line and one level down in any object of it. The first defence is that nothing logs
 * headers, bodies, GraphQL variables or SQL parameters at all; this list catches a mistake.
 */
export const REDACTED_KEYS: readonly string[] = [
  'authorization',
  'password',
  'token',
  'variables',
  'parameters',
  'connectionParams',
];
/** The same for a `headers` object's credentials. */
const REDACTED_HEADERS: readonly string[] = ['authorization', 'cookie'];
const CENSOR = '[redacted]';

/**
 * pino's redaction, at the top of a line and of a child logger's bindings. One level down in a
 * line is {@link censorNested}: pino's `*.` paths read every path of the list again for each
 * field of each line (@pinojs/redact 0.4.0), a sixteenth of the CPU of a cheap operation. Nothing
 * here binds an object to a child logger (Fastify binds the request id).
 */
const REDACTED_PATHS = [...REDACTED_KEYS, ...REDACTED_HEADERS.map((key) => `headers.${key}`)];

const hasAny = (object: Record<string, unknown>, keys: readonly string[]) =>
  keys.some((key) => object[key] !== undefined && Object.hasOwn(object, key));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function censored(object: Record<string, unknown>, keys: readonly string[]) {
  const copy = { ...object };
  for (const key of keys)
    if (Object.hasOwn(copy, key) && copy[key] !== undefined) copy[key] = CENSOR;
  return copy;
}

/**
 * `fields` with the credentials of each object in it censored, one level down: a copy where
 * there are some, `fields` itself (unchanged) where there are none.
 */
export function censorNested(fields: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in fields) {
    const value = fields[key];
    if (!isObject(value) || !Object.hasOwn(fields, key)) continue;
    const headers = value.headers;
    const inHeaders = isObject(headers) && hasAny(headers, REDACTED_HEADERS);
    if (!inHeaders && !hasAny(value, REDACTED_KEYS)) continue;
    const clean = censored(value, REDACTED_KEYS);
    if (inHeaders) clean.headers = censored(headers, REDACTED_HEADERS);
    copy ??= { ...fields };
    copy[key] = clean;
  }
  return copy ?? fields;
}

/** The request as a log line shows it: no headers, no query string (GET variables live there). */
function serializeRequest(request: { method?: string; url?: string; ip?: string }) {
  return { method: request.method, url: pathOf(request.url), clientAddress: request.ip };
}

/** What {@link traceIds} gives outside a span: nothing to merge into the line. */
const NO_TRACE: Record<string, string> = Object.freeze({});

/** With tracing on, a line logged inside a span names its trace, to find one from the other. */
function traceIds(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return NO_TRACE;
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

/** pino's merge of the ids into the line (the line's own fields first), skipped when none. */
function withTraceIds(line: object, ids: object): object {
  return ids === NO_TRACE ? line : Object.assign(ids, line);
}

/** pino's `isoTime`, `,"time":"<ISO 8601>"`, written by {@link isoTimestamp}. */
const isoTime = () => `,"time":"${isoTimestamp(Date.now())}"`;

/**
 * The app's pino logger: one JSON object a line, or pino-pretty's lines for a terminal.
 * `destination` replaces standard output (the tests capture logs through it).
 */
export function createLogger(
  config: Pick<ObservabilityConfig, 'logLevel' | 'logFormat'>,
  destination?: DestinationStream,
): Logger {
  const options: LoggerOptions = {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: CENSOR },
    formatters: { log: censorNested },
    serializers: { req: serializeRequest, err: pino.stdSerializers.err },
    timestamp: isoTime,
    mixin: traceIds,
    mixinMergeStrategy: withTraceIds,
  };
  if (config.logFormat === 'pretty') {
    // Required here, not imported, so that the JSON logs of production never load pino-pretty.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { build: pretty } = require('pino-pretty') as typeof import('pino-pretty');
    return pino(
      options,
      destination ??
        pretty({
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname,context',
          messageFormat: '{if context}[{context}] {end}{msg}',
        }),
    );
  }
  const json: LoggerOptions = {
    ...options,
    formatters: { ...options.formatters, level: (label) => ({ level: label }) },
  };
  return destination ? pino(json, destination) : pino(json);
}
