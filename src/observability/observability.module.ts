import { Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';

import { HttpObservability } from './http-observability';
import { BlogMetrics } from './metrics';
import { OperationReportPlugin } from './operation-report.plugin';
import { SubscriptionLogs } from './subscription-logs';
import { shutdownTracing } from './tracing-control';
import { observabilityConfig } from '../config/observability.config';

/**
 * Logs, metrics and traces of the standalone service, wired once: Fastify hooks (request ids,
 * the request's logger, `/metrics`), an Apollo plugin (a line and metrics per operation) and the
 * blog's WebSocket events. The pino logger itself is Fastify's (`fastifyObservabilityOptions`),
 * Nest's Logger writes to it through `PinoLoggerService`, SQL goes through
 * `ObservedTypeOrmLogger`, and tracing starts from `./tracing`, first thing in main.ts.
 */
@Module({
  imports: [ConfigModule.forFeature(observabilityConfig)],
  providers: [BlogMetrics, HttpObservability, OperationReportPlugin, SubscriptionLogs],
})
export class ObservabilityModule implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await shutdownTracing();
  }
}
