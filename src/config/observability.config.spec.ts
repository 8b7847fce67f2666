import { InvalidEnvironmentError } from './env';
import { loadObservabilityConfig } from './observability.config';

describe('observability settings', () => {
  it('should default to info logs, pretty in development and JSON elsewhere, no metrics, no traces', () => {
    expect(loadObservabilityConfig({})).toEqual({
      logLevel: 'info',
      logFormat: 'pretty',
      metrics: { enabled: false, token: null },
      tracing: { endpoint: null, protocol: 'http/protobuf' },
    });
    expect(loadObservabilityConfig({ NODE_ENV: 'production' }).logFormat).toBe('json');
    expect(loadObservabilityConfig({ NODE_ENV: 'test' }).logFormat).toBe('json');
  });

  it('should read every setting', () => {
    expect(
      loadObservabilityConfig({
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'json',
        METRICS_ENABLED: 'true',
        METRICS_TOKEN: 's3cret-token',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      }),
    ).toEqual({
      logLevel: 'debug',
      logFormat: 'json',
      metrics: { enabled: true, token: 's3cret-token' },
      tracing: { endpoint: 'http://collector:4318', protocol: 'http/json' },
    });
  });

  it('should prefer the traces-only OTLP variables, and trace nothing when OTEL_SDK_DISABLED', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/v1/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    };
    expect(loadObservabilityConfig(env).tracing).toEqual({
      endpoint: 'https://b/v1/traces',
      protocol: 'http/protobuf',
    });
    expect(loadObservabilityConfig({ ...env, OTEL_SDK_DISABLED: 'true' }).tracing.endpoint).toBe(
      null,
    );
  });

  it.each([
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['LOG_FORMAT', { LOG_FORMAT: 'xml' }],
    ['METRICS_ENABLED', { METRICS_ENABLED: 'maybe' }],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'has space' }],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }],
  ])('should name %s when it is invalid', (variable, env) => {
    const load = () => loadObservabilityConfig(env);
    expect(load).toThrow(InvalidEnvironmentError);
    expect(load).toThrow(new RegExp(`^Invalid environment variable ${variable}: `));
  });
});
