import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';

import { PostsService } from './posts.service';
import { BackgroundDrain } from '../common/background-drain';

/** How often an instance looks for scheduled posts whose time has come. */
export const SCHEDULER_INTERVAL_MS = 1_000;
/** The due posts one statement reads; a run reads batch after batch until none is left. */
const DUE_BATCH = 20;

/**
 * Publishes scheduled posts when their time comes: every {@link SCHEDULER_INTERVAL_MS}, and at
 * start-up for those that came due while no instance ran. Every instance looks; each post is
 * claimed in the database (see PostsService.publishDue), so exactly one of them publishes it.
 * A run that fails (the database away) is logged and tried again at the next tick.
 */
@Injectable()
export class PostScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PostScheduler.name);
  private readonly drainer: BackgroundDrain;

  constructor(private readonly posts: PostsService) {
    this.drainer = new BackgroundDrain(() => this.publishDue(), {
      delayMs: 0,
      retryMs: SCHEDULER_INTERVAL_MS,
      task: 'publish scheduled posts',
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.drainer.requestEvery(SCHEDULER_INTERVAL_MS);
  }

  /** Lets the publication under way end before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.drainer.stop();
  }

  /** Resolves once the run under way, if any, has ended: for tests and for shutdown. */
  settled(): Promise<void> {
    return this.drainer.settled();
  }

  private async publishDue(): Promise<void> {
    while (!this.drainer.isStopped) {
      if ((await this.posts.publishDue(new Date(), DUE_BATCH)) < DUE_BATCH) return;
    }
  }
}
