import { registerAs } from '@nestjs/config';

import { loadAppConfig } from './app.config';
import {
  InvalidEnvironmentError,
  readBoolean,
  readEnum,
  readOptionalString,
  readString,
} from './env';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The OTLP encodings the service can send: protobuf or JSON, over HTTP (no gRPC). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export interface ObservabilityConfig {
  /** The lowest level written; `silent` writes nothing. */
  logLevel: LogLevelName;
  /** One JSON object a line, or pino-pretty's coloured lines for a terminal. */
  logFormat: LogFormat;
  metrics: {
    /** Serve `GET /metrics` in the Prometheus text format; otherwise it is a 404. */
    enabled: boolean;
    /** When set, `/metrics` wants `Authorization: Bearer <token>`. */
    token: string | null;
  };
  /**
   * Traces are sent when an OTLP endpoint is set (the standard `OTEL_*` variables) and
   * `OTEL_SDK_DISABLED` is not true.
   */
  tracing: {
    endpoint: string | null;
    protocol: OtlpProtocol;
  };
}

export function loadObservabilityConfig(env: NodeJS.ProcessEnv = process.env): ObservabilityConfig {
  const { nodeEnv } = loadAppConfig(env);
  const token = readOptionalString(env, 'METRICS_TOKEN') ?? null;
  if (token !== null && !/^[\x21-\x7e]+$/.test(token)) {
    throw new InvalidEnvironmentError('METRICS_TOKEN', 'expected printable characters, no spaces');
  }
  return {
    logLevel: readEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: readEnum(
      env,
      'LOG_FORMAT',
      LOG_FORMATS,
      nodeEnv === 'development' ? 'pretty' : 'json',
    ),
    metrics: { enabled: readBoolean(env, 'METRICS_ENABLED', false), token },
    tracing: {
      endpoint: readBoolean(env, 'OTEL_SDK_DISABLED', false) ? null : readEndpoint(env),
      protocol: readEnum(
        env,
        env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
          ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
          : 'OTEL_EXPORTER_OTLP_PROTOCOL',
        OTLP_PROTOCOLS,
        'http/protobuf',
      ),
    },
  };
}

/** `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full URL) wins over `OTEL_EXPORTER_OTLP_ENDPOINT`. */
function readEndpoint(env: NodeJS.ProcessEnv): string | null {
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT']) {
    const value = readString(env, name, '');
    if (value === '') continue;
    if (!/^https?:\/\/[^\s/]+/.test(value)) {
      throw new InvalidEnvironmentError(name, `expected an http(s) URL, got "${value}"`);
    }
    return value;
  }
  return null;
}

export const observabilityConfig = registerAs('observability', () => loadObservabilityConfig());
