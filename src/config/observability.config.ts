import { registerAs } from '@nestjs/config';

import { loadAppConfig } from './app.config';
import { InvalidEnvironmentError, readBoolean, readEnum, readOptionalString } from './env';
import { LOG_FORMATS, LOG_LEVELS, OTLP_PROTOCOLS, SETTINGS } from './settings.schema';

export { LOG_FORMATS, LOG_LEVELS, OTLP_PROTOCOLS };
export type LogLevelName = (typeof LOG_LEVELS)[number];
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The OTLP encodings the service can send: protobuf or JSON, over HTTP (no gRPC). */
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
  const token = readOptionalString(env, SETTINGS.METRICS_TOKEN) ?? null;
  if (token !== null && !/^[\x21-\x7e]+$/.test(token)) {
    throw new InvalidEnvironmentError('METRICS_TOKEN', 'expected printable characters, no spaces');
  }
  return {
    logLevel: readEnum(env, SETTINGS.LOG_LEVEL),
    logFormat: readEnum(env, SETTINGS.LOG_FORMAT, nodeEnv === 'development' ? 'pretty' : 'json'),
    metrics: { enabled: readBoolean(env, SETTINGS.METRICS_ENABLED), token },
    tracing: {
      endpoint: readBoolean(env, SETTINGS.OTEL_SDK_DISABLED) ? null : readEndpoint(env),
      protocol: readProtocol(env),
    },
  };
}

/** `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, when set, wins over `OTEL_EXPORTER_OTLP_PROTOCOL`. */
function readProtocol(env: NodeJS.ProcessEnv): OtlpProtocol {
  const general = SETTINGS.OTEL_EXPORTER_OTLP_PROTOCOL;
  return env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? readEnum(env, SETTINGS.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, general.default)
    : readEnum(env, general);
}

/** `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full URL) wins over `OTEL_EXPORTER_OTLP_ENDPOINT`. */
function readEndpoint(env: NodeJS.ProcessEnv): string | null {
  for (const setting of [
    SETTINGS.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
    SETTINGS.OTEL_EXPORTER_OTLP_ENDPOINT,
  ]) {
    const { name } = setting;
    const value = readOptionalString(env, setting);
    if (value === undefined) continue;
    if (!/^https?:\/\/[^\s/]+/.test(value)) {
      throw new InvalidEnvironmentError(name, `expected an http(s) URL, got "${value}"`);
    }
    return value;
  }
  return null;
}

export const observabilityConfig = registerAs('observability', () => loadObservabilityConfig());
