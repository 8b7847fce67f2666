import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';

@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  /** 200 when the database answers, 503 when it does not. */
  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.database.pingCheck('database', { timeout: 2000 })]);
  }
}
