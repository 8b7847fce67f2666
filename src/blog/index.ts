/**
 * The public API of the blog module: import {@link BlogModule} into a Nest application that owns
 * the TypeORM and GraphQL roots, with {@link blogEntities} and {@link blogMigrations} for its
 * data source. Nothing else in `src/blog/` is meant to be imported from outside it.
 */
export { BlogModule } from './blog.module';
export type {
  BlogModuleOptions,
  BlogSubscriptionsOptions,
  ModerationOptions,
  RateLimit,
  TrustedDocumentsOptions,
} from './blog-options.interface';
export { BLOG_MODULE_OPTIONS } from './blog.module-definition';
export { BLOG_FEATURE_NAMES } from './blog-feature';
export type { BlogFeatureName, BlogFeatureSwitches } from './blog-feature';
export { blogSchemaTransform } from './features/schema-transform';
export type { SqlOptions } from './common/sql';
export { blogEntities } from './blog.entities';
export { migrations as blogMigrations } from './migrations';
export type { BlogContext } from './blog-context';
export { ErrorCode, formatGraphQLError, reportUnexpectedErrors } from './common/errors';
export { AccessTokenService } from './auth/access-token.service';
export { AuthService } from './auth/auth.service';
export { parseTokenLifetime, TOKEN_LIFETIME_FORMAT } from './auth/token-lifetime';
export { UsersService } from './users/users.service';
export { canonicalIdentifier } from './users/user-identifiers';
export { PostsService } from './posts/posts.service';
export { checkPostPath, DEFAULT_POST_PATH, parseSiteUrl, PostUrls } from './posts/post-urls';
export type { BlogSiteOptions } from './posts/post-urls';
export { checkLinkPath, checkMailFrom, checkSmtpUrl } from './mail/mail-options';
export type { BlogMailOptions } from './mail/mail-options';
export { EMAIL_NOT_VERIFIED } from './users/email-verification';
export { CommentsService } from './comments/comments.service';
export { LikesService } from './likes/likes.service';
export { FollowsService } from './follows/follows.service';
export { ModerationService } from './moderation/moderation.service';
export { ReportsService } from './moderation/reports.service';
export { ReportReason } from './moderation/reports.enums';
export { User } from './users/user.entity';
export { Role } from './users/roles';
export { PostReviewState } from './posts/post-review';
export { Post } from './posts/post.entity';
export { Comment } from './comments/comment.entity';
export { Like } from './likes/like.entity';
export { Follow } from './follows/follow.entity';
export { blogGraphQLContext } from './subscriptions/graphql-context';
export { httpRequestScope, runInRequestScope } from './common/request-scope';
export { limitedResultStringifier } from './common/response-size';
export { BlogDateTime, isoTimestamp } from './common/timestamps';
export { CompiledExecution } from './execution/compiled-execution';
export { compiledExecutionGateway } from './execution/compiled-execution-gateway';
export { compiledExecutionPlugin } from './execution/compiled-execution-plugin';
export type { CompiledExecutionOptions } from './execution/compiled-execution';
export { BlogWebSocketServer, WS_UNAUTHORIZED } from './subscriptions/websocket-server';
export { PublicationFanOut } from './notifications/publication-fan-out';
export type { SocketConnectionInfo } from './subscriptions/websocket-server';
export {
  BLOG_PUB_SUB,
  closePubSub,
  createInMemoryPubSub,
  createRedisPubSub,
} from './events/pub-sub';
export { RedisThrottlerStorage } from './limits/redis-throttler.storage';
export { OperationRules } from './limits/operation-rules';
export { RedisWriteRateLimitStorage } from './limits/write-rate-limit';
export type { WriteAllowance, WriteRateLimitStorage } from './limits/write-rate-limit-storage';
export { TrustedDocuments, trustedDocumentsProblem } from './documents/trusted-documents';
export { WebhooksService } from './webhooks/webhooks.service';
export { WebhookEvent } from './webhooks/webhook-event';
export type { BlogWebhookOptions } from './webhooks/webhook-options';
export { IMAGE_STORAGE } from './images/image-storage';
export type { ImageStorage, StoredFile } from './images/image-storage';
export type { BlogImagesOptions } from './images/image-options';
export { LocalImageStorage } from './images/local-image-storage';
export { S3ImageStorage } from './images/s3-image-storage';
export type { S3ImageStorageOptions } from './images/s3-image-storage';
export { ImagesService } from './images/images.service';
export { Image, ImageVariant } from './images/image.entity';
