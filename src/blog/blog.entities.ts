import { Bookmark } from './bookmarks/bookmark.entity';
import { CommentLike } from './comments/comment-like.entity';
import { Comment } from './comments/comment.entity';
import { Follow } from './follows/follow.entity';
import { Like } from './likes/like.entity';
import { ModerationLogEntry } from './moderation/moderation-log.entity';
import { ModerationItem } from './moderation/moderation-queue-item.entity';
import { Report } from './moderation/reports.entity';
import { Notification } from './notifications/notification.entity';
import { PostSlug } from './posts/post-slug.entity';
import { Post } from './posts/post.entity';
import { PostTag } from './tags/post-tag.entity';
import { User } from './users/user.entity';

/** The entity classes BlogModule registers; a host's TypeORM root must know them. */
export const blogEntities = [
  User,
  Post,
  PostSlug,
  Comment,
  CommentLike,
  Like,
  Follow,
  Bookmark,
  PostTag,
  Notification,
  ModerationLogEntry,
  ModerationItem,
  Report,
];
