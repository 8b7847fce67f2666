import { Args, Int, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';

import { ModerationLogConnection } from './dto/moderation-log-connection.type';
import { ModerationLogEntry } from './moderation-log.entity';
import { ModerationLogService } from './moderation-log.service';
import { CurrentViewer, Loaders } from '../auth/viewer.decorator';
import { BlogLoaders } from '../blog-loaders';
import { BlogResolverEnhancers } from '../blog-resolver.decorator';
import { forbidden, unauthenticated } from '../common/errors';
import { ConnectionArgs, cursorGroups, opaqueCursor, toPage } from '../common/pagination';
import { isUuid } from '../common/uuid';
import { COUNT_COMPLEXITY } from '../limits/operation-cost';
import { isAdmin } from '../users/roles';
import { User } from '../users/user.entity';
import { Viewer } from '../users/viewer';

const CURSOR = /^log:([0-9a-fA-F-]{36})$/;

/** The moderation log, for admins alone. */
@Resolver(() => ModerationLogEntry)
@BlogResolverEnhancers()
export class ModerationLogResolver {
  constructor(private readonly log: ModerationLogService) {}

  @Query(() => ModerationLogConnection, {
    description:
      'Every moderation action, newest first: who, what, why and when. Admins only (others: FORBIDDEN).',
  })
  async moderationLog(
    @Args() args: ConnectionArgs,
    @CurrentViewer() viewer: Viewer,
  ): Promise<ModerationLogConnection> {
    if (!viewer) throw unauthenticated('You must be signed in to read the moderation log.');
    if (!isAdmin(viewer)) throw forbidden('Only admins read the moderation log.');
    const after = args.after
      ? cursorGroups(args.after, CURSOR, 'after must be an endCursor of a previous page.', ([id]) =>
          isUuid(id!),
        )[0]!.toLowerCase()
      : null;
    const page = toPage({ first: args.first, after });
    const entries = page.first > 0 ? await this.log.page(page.first, after) : [];
    const edges = entries
      .slice(0, page.first)
      .map((node) => ({ cursor: opaqueCursor(`log:${node.id}`), node }));
    return {
      edges,
      pageInfo: {
        hasNextPage: entries.length > page.first,
        endCursor: edges.at(-1)?.cursor ?? null,
      },
      totalCount: 0,
    };
  }

  @ResolveField(() => User, {
    nullable: true,
    description: 'Who did it: null for the auto-hide rule, or once their account is gone.',
  })
  actor(@Parent() entry: ModerationLogEntry, @Loaders() loaders: BlogLoaders) {
    if (entry.actorId === null) return null;
    return loaders.knownUser(entry.actorId) ?? loaders.userById.load(entry.actorId);
  }
}

/** `totalCount` of the moderation log. */
@Resolver(() => ModerationLogConnection)
export class ModerationLogConnectionResolver {
  constructor(private readonly log: ModerationLogService) {}

  @ResolveField(() => Int, { description: 'Every entry of the log.', complexity: COUNT_COMPLEXITY })
  totalCount(@Parent() _connection: ModerationLogConnection): Promise<number> {
    return this.log.count();
  }
}
