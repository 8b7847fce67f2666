import { AccountToken } from './auth/account-token.entity';
import { Bookmark } from './bookmarks/bookmark.entity';
import { CommentLike } from './comments/comment-like.entity';
import { Comment } from './comments/comment.entity';
import { Follow } from './follows/follow.entity';
import { ImageUpload } from './images/image-upload.entity';
import { Image } from './images/image.entity';
import { Like } from './likes/like.entity';
import { OutboxMail } from './mail/outbox-mail.entity';
import { ModerationLogEntry } from './moderation/moderation-log.entity';
import { ModerationItem } from './moderation/moderation-queue-item.entity';
import { Report } from './moderation/reports.entity';
import { Notification } from './notifications/notification.entity';
import { PostSlug } from './posts/post-slug.entity';
import { Post } from './posts/post.entity';
import { PostTag } from './tags/post-tag.entity';
import { User } from './users/user.entity';
import { WebhookDelivery } from './webhooks/webhook-delivery.entity';
import { Webhook } from './webhooks/webhook.entity';

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
  AccountToken,
  OutboxMail,
  Image,
  ImageUpload,
  Webhook,
  WebhookDelivery,
];
