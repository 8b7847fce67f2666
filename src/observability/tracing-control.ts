import { loadObservabilityConfig } from '../config/observability.config';

let shutdown: (() => Promise<void>) | undefined;

/**
 * Starts OpenTelemetry when an OTLP endpoint is set, and does nothing (loads nothing) otherwise.
 * It must run before the instrumented modules (http, graphql, pg) are first required.
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): void {
  if (shutdown) return;
  let config: ReturnType<typeof loadObservabilityConfig>['tracing'];
  try {
    config = loadObservabilityConfig(env).tracing;
  } catch {
    return; // the app's validation reports the bad variable by name as it starts
  }
  if (config.endpoint === null) return;
  // Required here, not imported, so that without an endpoint none of the SDK is loaded.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
  shutdown = sdk.startTracingSdk(config);
}

/** Sends the spans still buffered and stops tracing; the app calls it as it shuts down. */
export async function shutdownTracing(): Promise<void> {
  const stop = shutdown;
  shutdown = undefined;
  await stop?.();
}
