import { Args, Context, ID, Parent, ResolveField, Resolver } from '@nestjs/graphql';

import { BanUserArgs } from './dto/ban-user.args';
import { ModerationService } from './moderation.service';
import { CurrentViewer } from '../auth/viewer.decorator';
import { BlogContext, mayViewPrivateFields } from '../blog-context';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { Comment } from '../comments/comment.entity';
import { inputValidationPipe } from '../common/validation';
import { Post } from '../posts/post.entity';
import { activeBan } from '../users/bans';
import { isModerator } from '../users/roles';
import { User } from '../users/user.entity';
import { Viewer } from '../users/viewer';

/** Whether `viewer` sees `user`'s ban: the user themself, and moderators. */
const seesBan = (user: User, context: BlogContext) =>
  context.viewer?.id === user.id || isModerator(context.viewer ?? null);

/** The moderators' mutations (hide, restore, lock, ban) and what they show. */
@Resolver()
@BlogResolverEnhancers()
export class ModerationResolver {
  constructor(private readonly moderation: ModerationService) {}

  @BlogMutation(() => Comment, {
    description:
      'Hides a comment: gone for everyone but its author and moderators, and from their counts. Editors and admins only.',
  })
  hideComment(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.moderation.setCommentHidden(id, true, viewer);
  }

  @BlogMutation(() => Comment, {
    description: 'Shows a hidden or held comment again. Editors and admins only.',
  })
  restoreComment(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.moderation.setCommentHidden(id, false, viewer);
  }

  @BlogMutation(() => Post, {
    description:
      "Locks (or unlocks) a post's comments: new ones are FORBIDDEN. The post's author, editors and admins.",
  })
  lockComments(
    @Args('postId', { type: () => ID }) postId: string,
    @Args('locked') locked: boolean,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.moderation.lockComments(postId, locked, viewer);
  }

  @BlogMutation(() => User, {
    description:
      'Bans a user from writing until `until`, or for good; their reads are unaffected, and each refused write says why and until when. Editors and admins; only admins ban editors, and admins cannot be banned.',
  })
  banUser(@Args(inputValidationPipe) args: BanUserArgs, @CurrentViewer() viewer: Viewer) {
    return this.moderation.ban(args.userId, args.reason, args.until ?? null, viewer);
  }

  @BlogMutation(() => User, { description: 'Lifts a ban. Editors and admins.' })
  unbanUser(@Args('userId', { type: () => ID }) userId: string, @CurrentViewer() viewer: Viewer) {
    return this.moderation.unban(userId, viewer);
  }
}

/** A user's ban, shown to the user and moderators. */
@Resolver(() => User)
export class UserBanResolver {
  @ResolveField(() => Boolean, {
    description:
      'Whether the user is banned from writing now. To the user and moderators; false to others.',
  })
  banned(@Parent() user: User, @Context() context: BlogContext): boolean {
    return seesBan(user, context) && activeBan(user) !== null;
  }

  @ResolveField(() => Date, {
    nullable: true,
    description:
      'Until when the user is banned from writing; null when not banned, or banned for good (see `banned`). To the user and moderators; null to others.',
  })
  bannedUntil(@Parent() user: User, @Context() context: BlogContext): Date | null {
    return seesBan(user, context) ? (activeBan(user)?.until ?? null) : null;
  }

  @ResolveField(() => String, {
    nullable: true,
    description: 'Why the user is banned; null when not banned. To the user and moderators.',
  })
  banReason(@Parent() user: User, @Context() context: BlogContext): string | null {
    return seesBan(user, context) ? (activeBan(user)?.reason ?? null) : null;
  }
}

/** Post fields of moderation. */
@Resolver(() => Post)
export class PostModerationResolver {
  @ResolveField(() => Boolean, { description: 'Whether new comments are refused.' })
  commentsLocked(@Parent() post: Post): boolean {
    return post.commentsLockedAt !== null;
  }

  @ResolveField(() => Date, {
    nullable: true,
    description:
      'When moderation hid the post (it is then a draft its author cannot publish); to its author and moderators, null to others.',
  })
  hiddenAt(@Parent() post: Post, @Context() context: BlogContext): Date | null {
    const viewer = context.viewer ?? null;
    return mayViewPrivateFields(context, post.authorId) || isModerator(viewer)
      ? post.hiddenAt
      : null;
  }
}
