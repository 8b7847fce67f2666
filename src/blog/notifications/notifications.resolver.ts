import {
  Args,
  Context,
  ID,
  Int,
  Query,
  ResolveField,
  Resolver,
  Subscription,
} from '@nestjs/graphql';

import { NotificationConnection } from './dto/notification-connection.type';
import { NotificationsArgs } from './dto/notifications.args';
import { decodeNotificationCursor, encodeNotificationCursor } from './notification-cursor';
import { Notification } from './notification.entity';
import { notificationById, notificationOfPublication } from './notifications.loaders';
import { NotificationsService } from './notifications.service';
import { CurrentViewer, loadersOf } from '../auth/viewer.decorator';
import { BlogContext } from '../blog-context';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { shownTo } from '../comments/comment-visibility';
import { Comment } from '../comments/comment.entity';
import { badUserInput, unauthenticated } from '../common/errors';
import { toPage } from '../common/pagination';
import { isUuid } from '../common/uuid';
import { BlogEvent, NotificationAddedEvent } from '../events/blog-events';
import { COUNT_COMPLEXITY } from '../limits/operation-cost';
import { Post } from '../posts/post.entity';
import { SubscriptionFanOut } from '../subscriptions/event-fan-out';
import { User } from '../users/user.entity';
import { Viewer } from '../users/viewer';

/** The signed-in viewer's notifications: the list, the unread count, marking read, live. */
@Resolver(() => Notification)
@BlogResolverEnhancers()
export class NotificationsResolver {
  constructor(
    private readonly notificationsService: NotificationsService,
    private readonly fanOut: SubscriptionFanOut,
  ) {}

  @Query(() => NotificationConnection, {
    description:
      "The viewer's notifications, newest first; those of posts that are drafts now are left out. Needs a signed-in user.",
  })
  async notifications(
    @Args() args: NotificationsArgs,
    @CurrentViewer() viewer: Viewer,
  ): Promise<NotificationConnection> {
    const { first } = toPage({ first: args.first });
    const after = args.after ? decodeNotificationCursor(args.after) : null;
    const { notifications, hasNextPage } = await this.notificationsService.page(
      viewer,
      first,
      after,
      args.unreadOnly ?? false,
    );
    const edges = notifications.map((node) => ({
      cursor: encodeNotificationCursor(node.id),
      node,
    }));
    return { edges, pageInfo: { hasNextPage, endCursor: edges.at(-1)?.cursor ?? null } };
  }

  @Query(() => Int, {
    description: "How many of the viewer's notifications are unread. Needs a signed-in user.",
    complexity: COUNT_COMPLEXITY,
  })
  unreadNotificationsCount(@CurrentViewer() viewer: Viewer): Promise<number> {
    return this.notificationsService.countUnread(viewer);
  }

  @BlogMutation(() => Int, {
    description:
      "Marks the viewer's unread notifications read: those up to upTo (it and older ones), or all when upTo is left out. Returns how many it marked; an upTo that is not one of the viewer's notifications is NOT_FOUND.",
  })
  markNotificationsRead(
    @Args('upTo', { type: () => ID, nullable: true }) upTo: string | null | undefined,
    @CurrentViewer() viewer: Viewer,
  ): Promise<number> {
    if (upTo != null && !isUuid(upTo)) {
      throw badUserInput('upTo must be the id of one of your notifications.', 'upTo');
    }
    return this.notificationsService.markRead(viewer, upTo?.toLowerCase() ?? null);
  }

  @Subscription(() => Notification, {
    description: "Each of the viewer's new notifications, as it is raised. Needs a signed-in user.",
    async filter(
      this: NotificationsResolver,
      event: NotificationAddedEvent,
      _: unknown,
      context: BlogContext,
    ) {
      return (await this.notificationOf(event, context)) !== null;
    },
    resolve(
      this: NotificationsResolver,
      event: NotificationAddedEvent,
      _: unknown,
      context: BlogContext,
    ) {
      return this.notificationOf(event, context);
    },
  })
  notificationAdded(@CurrentViewer() viewer: Viewer, @Context() context: BlogContext) {
    if (!viewer) throw unauthenticated('You must be signed in to hear of your notifications.');
    return this.fanOut.listen(BlogEvent.NotificationAdded, context);
  }

  @ResolveField(() => User, { description: 'Who did it.' })
  actor(
    notification: Notification,
    _args: unknown,
    context: BlogContext,
  ): User | Promise<User | null> {
    const loaders = loadersOf(context);
    return loaders.knownUser(notification.actorId) ?? loaders.userById.load(notification.actorId);
  }

  @ResolveField(() => Post, {
    nullable: true,
    description: 'The post it is about; null for FOLLOWED.',
  })
  async post(
    notification: Notification,
    _args: unknown,
    context: BlogContext,
  ): Promise<Post | null> {
    if (notification.postId === null) return null;
    const post = await loadersOf(context).postById.load(notification.postId);
    return post?.publishedAt ? post : null;
  }

  @ResolveField(() => Comment, {
    nullable: true,
    description:
      'The comment it is about: the comment or reply made (POST_COMMENTED, COMMENT_REPLIED), or the comment liked (COMMENT_LIKED); null for the others.',
  })
  async comment(
    notification: Notification,
    _args: unknown,
    context: BlogContext,
  ): Promise<Comment | null> {
    if (notification.commentId === null) return null;
    const comment = await loadersOf(context).commentById.load(notification.commentId);
    return comment && shownTo(comment, context.viewer ?? null);
  }

  /**
   * The viewer's notification that `event` announces, or null when it is not theirs. The
   * event's reads are shared by its subscribers (one statement for the viewers re-read, one for
   * a slice of a publication's followers); the viewer's loaders for the event then answer the
   * notification's fields.
   */
  private async notificationOf(
    event: NotificationAddedEvent,
    context: BlogContext,
  ): Promise<Notification | null> {
    if (!context.viewer || !concerns(event, context.viewer.id)) return null;
    const scope = this.fanOut.scopeOf(event);
    if (!(await scope.refresh(context))) return null;
    const viewer: Viewer = context.viewer ?? null;
    if (!viewer) return null;
    context.loaders = scope.loadersFor(viewer);
    const notification =
      'notificationId' in event
        ? await notificationById(scope.loaders, this.notificationsService).load(
            event.notificationId,
          )
        : await notificationOfPublication(scope.loaders, this.notificationsService, event).load(
            viewer.id,
          );
    return notification?.recipientId === viewer.id ? notification : null;
  }
}

/**
 * Whether `event` may be for `viewerId`: a publication is never news to its own author, and a
 * chunk of its fan-out only to the followers in its range.
 */
function concerns(event: NotificationAddedEvent, viewerId: string): boolean {
  if ('recipientId' in event) return event.recipientId === viewerId;
  if (event.actorId === viewerId) return false;
  const { followers } = event;
  if (!followers) return true;
  return viewerId > followers.after && (followers.last === undefined || viewerId <= followers.last);
}
