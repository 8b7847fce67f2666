import { Args, Extensions, Int, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';

import { ModerationItemConnection } from './dto/moderation-item-connection.type';
import { ModerationItemsArgs } from './dto/moderation-items.args';
import { ReportResolutionArgs } from './dto/report-resolution.args';
import { ModerationTargetType } from './moderation-action';
import { decodeQueueCursor, encodeQueueCursor } from './moderation-queue-cursor';
import { ModerationItem } from './moderation-queue-item.entity';
import { ModerationTarget } from './moderation-queue-target';
import { moderationQueueLoaders } from './moderation-queue.loaders';
import { ModerationQueueService } from './moderation-queue.service';
import { Report } from './reports.entity';
import { ReportReason, ReportStatus } from './reports.enums';
import { CurrentViewer, Loaders } from '../auth/viewer.decorator';
import { BlogLoaders } from '../blog-loaders';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { Comment } from '../comments/comment.entity';
import { PageArgs, toPage } from '../common/pagination';
import { expensive, POSTS_SCAN_WORK } from '../limits/expensive-fields';
import { COUNT_COMPLEXITY } from '../limits/operation-cost';
import { Post } from '../posts/post.entity';
import { User } from '../users/user.entity';
import { Viewer } from '../users/viewer';

/** What counting the resolved items costs beyond its page: as much as counting the posts. */
const RESOLVED_WORK = POSTS_SCAN_WORK;

/** The target of an item resolveReport resolved, for when no loader finds it any more: deleted. */
const deletedTargets = new WeakMap<ModerationItem, Post | Comment>();

/** The moderation queue and its resolution, for editors and admins. */
@Resolver(() => ModerationItem)
@BlogResolverEnhancers()
export class ModerationQueueResolver {
  constructor(private readonly queue: ModerationQueueService) {}

  @Query(() => ModerationItemConnection, {
    description:
      'Reports grouped by post or comment, for editors and admins (others: FORBIDDEN): open items oldest first, or resolved ones newest resolved first. Items whose target is gone are left out.',
  })
  async moderationQueue(
    @Args() args: ModerationItemsArgs,
    @CurrentViewer() viewer: Viewer,
  ): Promise<ModerationItemConnection> {
    const status = args.status ?? ReportStatus.OPEN;
    const { first } = toPage({ first: args.first });
    const after = args.after ? decodeQueueCursor(args.after, status) : null;
    const items = await this.queue.page(viewer, status, first, after);
    const edges = items
      .slice(0, first)
      .map((node) => ({ cursor: encodeQueueCursor(node, status), node }));
    return {
      edges,
      pageInfo: { hasNextPage: items.length > first, endCursor: edges.at(-1)?.cursor ?? null },
      totalCount: 0,
      status,
    };
  }

  @BlogMutation(() => ModerationItem, {
    description:
      'Resolves the reports of a post or comment: editors and admins (others: FORBIDDEN). A resolved item is CONFLICT.',
  })
  async resolveReport(
    @Args() args: ReportResolutionArgs,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ): Promise<ModerationItem> {
    const { item, target, summary } = await this.queue.resolve(args.id, args.action, viewer);
    deletedTargets.set(item, target);
    loaders.primeAfterClear(() =>
      moderationQueueLoaders(loaders, this.queue).summaryByItem.prime(item.id, summary),
    );
    return item;
  }

  @ResolveField(() => ModerationTarget, { description: 'The post or comment reported.' })
  async target(
    @Parent() item: ModerationItem,
    @Loaders() loaders: BlogLoaders,
  ): Promise<Post | Comment> {
    const found =
      item.targetType === ModerationTargetType.POST
        ? await loaders.postById.load(item.targetId)
        : await loaders.commentById.load(item.targetId);
    const target = found ?? deletedTargets.get(item);
    if (!target) throw new Error(`Moderation item ${item.id} has no target ${item.targetId}`);
    return target;
  }

  @ResolveField(() => Int, { description: 'How many readers reported the target.' })
  async reports(@Parent() item: ModerationItem, @Loaders() loaders: BlogLoaders): Promise<number> {
    return (await moderationQueueLoaders(loaders, this.queue).summaryByItem.load(item.id)).reports;
  }

  @ResolveField(() => [ReportReason], {
    description:
      'The reasons the reports give, each once, in the order SPAM, HARASSMENT, HATE, MISINFORMATION, OFF_TOPIC, ILLEGAL, OTHER.',
  })
  async reasons(
    @Parent() item: ModerationItem,
    @Loaders() loaders: BlogLoaders,
  ): Promise<ReportReason[]> {
    return (await moderationQueueLoaders(loaders, this.queue).summaryByItem.load(item.id)).reasons;
  }

  @ResolveField(() => [Report], {
    description: 'The reports, oldest first: who reported, why, and their note.',
  })
  reportList(
    @Parent() item: ModerationItem,
    @Args() args: PageArgs,
    @Loaders() loaders: BlogLoaders,
  ): Promise<Report[]> {
    const page = toPage(args);
    return moderationQueueLoaders(loaders, this.queue).reportsByItem.for(page).load(item.id);
  }

  @ResolveField(() => User, {
    nullable: true,
    description: 'The moderator who resolved it; null while open, or once their account is gone.',
  })
  resolvedBy(@Parent() item: ModerationItem, @Loaders() loaders: BlogLoaders) {
    if (item.resolvedById === null) return null;
    return loaders.knownUser(item.resolvedById) ?? loaders.userById.load(item.resolvedById);
  }
}

/** Who filed a report. */
@Resolver(() => Report)
export class ReportResolver {
  @ResolveField(() => User, { description: 'Who reported: seen by moderators alone.' })
  reporter(@Parent() report: Report, @Loaders() loaders: BlogLoaders): User | Promise<User> {
    return loaders.authorOf(report.reporterId, 'Report', report.id);
  }
}

/** `totalCount` of a page of the moderation queue. */
@Resolver(() => ModerationItemConnection)
export class ModerationItemConnectionResolver {
  constructor(private readonly queue: ModerationQueueService) {}

  @ResolveField(() => Int, {
    description: 'The items of the status asked for whose target is still there, on every page.',
    complexity: COUNT_COMPLEXITY,
  })
  // Resolved items pile up for good; open ones are few, while moderators keep up.
  @Extensions(
    expensive(({ parent }) =>
      parent?.args.status === ReportStatus.RESOLVED ? RESOLVED_WORK : null,
    ),
  )
  totalCount(@Parent() connection: ModerationItemConnection): Promise<number> {
    return this.queue.count(connection.status);
  }
}
