import { trace } from '@opentelemetry/api';
import pino, { DestinationStream, Logger, LoggerOptions } from 'pino';

import type { ObservabilityConfig } from '../config/observability.config';

/**
 * Never written, at any level: credentials wherever they could appear in a log object. The
 * first defence is that nothing logs headers, bodies, GraphQL variables or SQL parameters at
 * all; this list catches a mistake.
 */
export const REDACTED_PATHS = [
  'authorization',
  'password',
  'token',
  'variables',
  'parameters',
  'connectionParams',
  'headers.authorization',
  'headers.cookie',
  '*.authorization',
  '*.password',
  '*.token',
  '*.variables',
  '*.parameters',
  '*.connectionParams',
  '*.headers.authorization',
  '*.headers.cookie',
];

/** Probes and scrapes: not traced, not logged at `info` when they succeed, never queued. */
export const PROBE_PATHS: ReadonlySet<string> = new Set([
  '/health',
  '/health/live',
  '/health/ready',
  '/metrics',
]);

/** The request as a log line shows it: no headers, no query string (GET variables live there). */
function serializeRequest(request: { method?: string; url?: string; ip?: string }) {
  return { method: request.method, url: pathOf(request.url), clientAddress: request.ip };
}

export function pathOf(url: string | undefined): string | undefined {
  const query = url?.indexOf('?') ?? -1;
  return query === -1 ? url : url!.slice(0, query);
}

/** With tracing on, a line logged inside a span names its trace, to find one from the other. */
function traceIds(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

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
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest, err: pino.stdSerializers.err },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: traceIds,
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
  const json: LoggerOptions = { ...options, formatters: { level: (label) => ({ level: label }) } };
  return destination ? pino(json, destination) : pino(json);
}
