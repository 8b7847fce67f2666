import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';

import { ImagesService } from './images.service';
import { BackgroundDrain } from '../common/background-drain';

/** How often an instance lists the stored files for orphans. */
export const ORPHAN_SWEEP_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Removes the image files that no image will own, at start-up (for what a killed process left)
 * and then on a timer: those of abandoned uploads, once their lease has run out, every third of
 * a lease (a cheap read of a small table; 5 s on the local disk); and files with neither row nor
 * upload every {@link ORPHAN_SWEEP_INTERVAL_MS}. Several instances may sweep at once (see
 * ImagesService).
 */
@Injectable()
export class OrphanSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OrphanSweeper.name);
  private readonly uploads: BackgroundDrain;
  private readonly uploadsIntervalMs: number;
  private readonly orphans: BackgroundDrain;

  constructor(private readonly images: ImagesService) {
    this.uploadsIntervalMs = Math.round(images.uploadLeaseMs / 3);
    this.uploads = new BackgroundDrain(() => this.sweepUploads(), {
      delayMs: 0,
      retryMs: this.uploadsIntervalMs,
      task: 'remove the files of abandoned image uploads',
      logger: this.logger,
    });
    this.orphans = new BackgroundDrain(() => this.sweepOrphans(), {
      delayMs: 0,
      retryMs: ORPHAN_SWEEP_INTERVAL_MS,
      task: 'remove orphaned image files',
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.uploads.requestEvery(this.uploadsIntervalMs);
    this.orphans.requestEvery(ORPHAN_SWEEP_INTERVAL_MS);
  }

  /** Lets the sweeps under way end before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.uploads.stop(), this.orphans.stop()]);
  }

  /** Sweeps both now (or joins the sweeps under way) and resolves once they have ended: for tests. */
  async sweepNow(): Promise<void> {
    await this.uploads.runNow();
    await this.orphans.runNow();
  }

  private async sweepUploads(): Promise<void> {
    const removed = await this.images.sweepAbandonedUploads(
      new Date(),
      () => this.uploads.isStopped,
    );
    if (removed > 0) this.logger.log(`Removed ${removed} files of abandoned image uploads.`);
  }

  private async sweepOrphans(): Promise<void> {
    const removed = await this.images.sweepOrphans(() => this.orphans.isStopped);
    if (removed > 0) this.logger.log(`Removed ${removed} orphaned image files.`);
  }
}
