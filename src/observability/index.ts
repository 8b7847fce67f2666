export { createLogger } from './logger';
export { fastifyObservabilityOptions } from './http-observability';
export { BlogMetrics } from './metrics';
export { PinoLoggerService } from './nest-logger';
export { ObservabilityModule } from './observability.module';
