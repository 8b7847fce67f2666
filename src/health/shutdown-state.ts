import { Injectable, OnModuleDestroy } from '@nestjs/common';

/**
 * Whether the service is on its way out. It turns as the shutdown begins (the signal handler of
 * `enableGracefulShutdown`, or the first hook of any `app.close()`), so that readiness answers
 * 503 while the requests in flight finish.
 */
@Injectable()
export class ShutdownState implements OnModuleDestroy {
  private shuttingDown = false;

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  begin(): void {
    this.shuttingDown = true;
  }

  onModuleDestroy(): void {
    this.begin();
  }
}
