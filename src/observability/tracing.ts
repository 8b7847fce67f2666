// The first import of main.ts: OpenTelemetry must patch http, graphql and pg before anything
// requires them. Does nothing unless OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT) is set.
import { startTracing } from './tracing-control';

startTracing();
