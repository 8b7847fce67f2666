import DataLoader from 'dataloader';

import { ModerationQueueService, ReportSummary } from './moderation-queue.service';
import { Report } from './reports.entity';
import type { BlogLoaders } from '../blog-loaders';
import { PagedLoaders } from '../common/loaders';

/** The moderation queue's loaders of one request: each item's report counts and reports. */
export class ModerationQueueLoaders {
  constructor(private readonly queue: ModerationQueueService) {}

  /** How many reports each item has, and their reasons: one grouped statement a batch. */
  readonly summaryByItem = new DataLoader<string, ReportSummary>(async (ids) => {
    const summaries = await this.queue.summaries(ids);
    return ids.map((id) => summaries.get(id)!);
  });

  /** A page of each item's reports: one statement a batch. */
  readonly reportsByItem = new PagedLoaders<Report>((ids, page) => this.queue.reportsOf(ids, page));
}

/** The request's moderation queue loaders, made on first use and forgotten after a mutation. */
export function moderationQueueLoaders(
  loaders: BlogLoaders,
  queue: ModerationQueueService,
): ModerationQueueLoaders {
  return loaders.featureLoader('moderationQueue', () => new ModerationQueueLoaders(queue));
}
