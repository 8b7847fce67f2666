import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';

import { ImagesService } from './images.service';
import { BackgroundDrain } from '../common/background-drain';

/** How often an instance looks for orphaned image files. */
export const ORPHAN_SWEEP_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Removes image files that have no row once they are an hour old (see
 * ImagesService.sweepOrphans): at start-up, for what a killed process left, and every
 * {@link ORPHAN_SWEEP_INTERVAL_MS}. Several instances may sweep at once: each removes only
 * files an hour old whose row is missing, which no upload still writes.
 */
@Injectable()
export class OrphanSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OrphanSweeper.name);
  private readonly drainer: BackgroundDrain;

  constructor(private readonly images: ImagesService) {
    this.drainer = new BackgroundDrain(() => this.sweep(), {
      delayMs: 0,
      retryMs: ORPHAN_SWEEP_INTERVAL_MS,
      task: 'remove orphaned image files',
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.drainer.requestEvery(ORPHAN_SWEEP_INTERVAL_MS);
  }

  /** Lets the sweep under way end before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.drainer.stop();
  }

  /** Sweeps now (or joins the sweep under way) and resolves once it has ended: for tests. */
  sweepNow(): Promise<void> {
    return this.drainer.runNow();
  }

  private async sweep(): Promise<void> {
    const removed = await this.images.sweepOrphans(new Date(), () => this.drainer.isStopped);
    if (removed > 0) this.logger.log(`Removed ${removed} orphaned image files.`);
  }
}
