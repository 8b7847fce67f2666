import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

import { pathOf, PROBE_PATHS } from './paths';
import type { ObservabilityConfig } from '../config/observability.config';

/**
 * The OpenTelemetry SDK: spans of HTTP requests, GraphQL operations (named after the operation)
 * and PostgreSQL statements, sent over OTLP/HTTP in protobuf or JSON. The exporter and the batch
 * processor read the standard variables (OTEL_EXPORTER_OTLP_ENDPOINT, ..._HEADERS, ..._TIMEOUT,
 * OTEL_BSP_*), the provider OTEL_TRACES_SAMPLER and the resource OTEL_SERVICE_NAME and
 * OTEL_RESOURCE_ATTRIBUTES. SQLite statements get their spans from the TypeORM logger.
 * Returns the shutdown, which sends the spans still buffered.
 */
export function startTracingSdk(config: ObservabilityConfig['tracing']): () => Promise<void> {
  const exporter =
    config.protocol === 'http/json' ? new OtlpJsonExporter() : new OtlpProtobufExporter();
  const provider = new NodeTracerProvider({
    resource: defaultResource()
      .merge(resourceFromAttributes({ 'service.name': 'blog-graphql' }))
      .merge(detectResources({ detectors: [envDetector] })),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => PROBE_PATHS.has(pathOf(request.url) ?? ''),
        // A GET operation carries its query and variables in the query string.
        redactedQueryParamsServer: ['query', 'variables', 'extensions'],
      }),
      // Variable values stay out of spans (allowValues is off by default).
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, mergeItems: true }),
      new PgInstrumentation({
        requireParentSpan: true,
        // The older attribute name too, which many back ends still search by.
        requestHook: (span, { query }) => span.setAttribute('db.statement', query.text),
      }),
    ],
  });
  return () => provider.shutdown();
}
