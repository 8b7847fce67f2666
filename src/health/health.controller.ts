import { Controller, Get } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorFunction,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';

import { RedisHealthIndicator } from './redis.health';
import { ShutdownState } from './shutdown-state';

/** How long one dependency may take to answer a readiness probe. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * Probes for orchestrators and load balancers: `/health/live` says the process answers,
 * `/health/ready` (and `/health`, its older name) that it can serve requests now. A failing
 * check answers 503 and is named under `error`.
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly shutdown: ShutdownState,
  ) {}

  /** 200 while the process answers. No dependency is checked: an outage restarts nothing. */
  @Get('live')
  live() {
    return { status: 'ok' };
  }

  /** 200 when the database (and Redis, when configured) answer; 503 once a shutdown has begun. */
  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check(this.readinessChecks());
  }

  /** The readiness probe under its first name. */
  @Get()
  @HealthCheck()
  check() {
    return this.ready();
  }

  private readinessChecks(): HealthIndicatorFunction[] {
    const checks: HealthIndicatorFunction[] = [
      () => {
        const server = this.indicators.check('server');
        return this.shutdown.isShuttingDown ? server.down('shutting down') : server.up();
      },
      () => this.database.pingCheck('database', { timeout: CHECK_TIMEOUT_MS }),
    ];
    if (this.redis.configured) checks.push(() => this.redis.pingCheck('redis', CHECK_TIMEOUT_MS));
    return checks;
  }
}
