import { InvalidEnvironmentError } from './env';

/** Every variable the service's configuration loaders read (a unit spec holds them to it). */
export const SERVICE_SETTINGS = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'DATA_DIR',
  'SEED_DEMO',
  'TRUST_PROXY',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'DATABASE_STATEMENT_TIMEOUT_MS',
  'DATABASE_READ_WORKERS',
  'DATABASE_LOGGING',
  'JWT_SECRET',
  'JWT_EXPIRES_IN',
  'AUTH_RATE_LIMIT',
  'AUTH_RATE_LIMIT_WINDOW_MS',
  'RATE_LIMIT_WRITES_PER_MINUTE',
  'REDIS_URL',
  'REDIS_PREFIX',
  'CORS_ORIGINS',
  'GRAPHIQL',
  'BLOG_FEATURES',
  'GRAPHQL_INTROSPECTION',
  'GRAPHQL_SCHEMA_FILE',
  'GRAPHQL_MAX_COMPLEXITY',
  'GRAPHQL_MAX_EXPENSIVE_FIELDS',
  'GRAPHQL_MAX_RESPONSE_BYTES',
  'GRAPHQL_MAX_DEPTH',
  'GRAPHQL_MAX_ALIASES',
  'GRAPHQL_MAX_DIRECTIVES',
  'GRAPHQL_MAX_TOKENS',
  'SEARCH_RANK_WINDOW',
  'GRAPHQL_MAX_BODY_BYTES',
  'GRAPHQL_JIT',
  'GRAPHQL_JIT_COMPILE_AFTER',
  'GRAPHQL_JIT_COMPILES_PER_MINUTE',
  'GRAPHQL_JIT_MAX_SELECTIONS',
  'GRAPHQL_JIT_MAX_DOCUMENTS',
  'GRAPHQL_JIT_MAX_BYTES',
  'WS_MAX_PAYLOAD_BYTES',
  'WS_MAX_SUBSCRIPTIONS',
  'WS_MAX_SUBSCRIPTIONS_PER_CLIENT',
  'WS_MAX_SUBSCRIPTIONS_TOTAL',
  'WS_MAX_CONNECTIONS_PER_CLIENT',
  'HTTP_REQUEST_TIMEOUT_MS',
  'HTTP_CONNECTION_TIMEOUT_MS',
  'HTTP_KEEP_ALIVE_TIMEOUT_MS',
  'HTTP_MAX_CONNECTIONS',
  'HTTP_MAX_CONNECTIONS_PER_CLIENT',
  'HTTP_CLIENT_CAP_EXEMPT',
  'HTTP_MAX_REQUESTS_IN_FLIGHT',
  'TRUSTED_DOCUMENTS',
  'TRUSTED_DOCUMENTS_ONLY',
  'SHUTDOWN_TIMEOUT_MS',
  'LOG_LEVEL',
  'LOG_FORMAT',
  'METRICS_ENABLED',
  'METRICS_TOKEN',
  'OTEL_SDK_DISABLED',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
] as const;

/** Standard OpenTelemetry variables that the tracing SDK reads itself, once tracing is on. */
export const OTEL_SDK_SETTINGS = [
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'OTEL_EXPORTER_OTLP_TIMEOUT',
  'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_BSP_SCHEDULE_DELAY',
  'OTEL_BSP_EXPORT_TIMEOUT',
  'OTEL_BSP_MAX_QUEUE_SIZE',
  'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
] as const;

/** Settings of the npm scripts (`npm run check:contract`), not of the service. */
export const SCRIPT_SETTINGS = ['CONTRACT_FILE', 'CONTRACT_CHECK'] as const;

const KNOWN = new Set<string>([...SERVICE_SETTINGS, ...OTEL_SDK_SETTINGS, ...SCRIPT_SETTINGS]);

/**
 * The known setting that `name` is most likely a misspelling of: the same name in other case,
 * or one a small edit away (one edit for names of up to 6 characters, two for longer ones, so
 * that PGHOST is not taken for HOST). Undefined for a known name or one close to none.
 */
export function misspeltSetting(name: string): string | undefined {
  if (KNOWN.has(name)) return undefined;
  let best: { setting: string; distance: number } | undefined;
  for (const setting of KNOWN) {
    const distance = editDistance(name.toUpperCase(), setting);
    const allowed = setting.length <= 6 ? 1 : 2;
    if (distance <= allowed && (!best || distance < best.distance)) best = { setting, distance };
  }
  return best?.setting;
}

/**
 * Refuses a variable of `.env` that is not a setting but is close to one ("did you mean
 * JWT_SECRET?"): a misspelt security setting would otherwise be ignored and its default used.
 * Names close to none are left alone, since `.env` files hold other tools' settings too.
 */
export function refuseMisspeltSettings(names: Iterable<string>): void {
  for (const name of names) {
    const setting = misspeltSetting(name);
    if (setting) {
      throw new InvalidEnvironmentError(
        name,
        `.env sets it, but the service reads no such setting; did you mean ${setting}?`,
      );
    }
  }
}

/** Optimal string alignment distance: insertions, deletions, substitutions and transpositions. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}
