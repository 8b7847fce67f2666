/**
 * The public API of the blog module: import {@link BlogModule} into a Nest application that owns
 * the TypeORM and GraphQL roots.
 */
export { BlogModule } from './blog.module';
export type {
  BlogModuleOptions,
  BlogSubscriptionsOptions,
  TrustedDocumentsOptions,
} from './blog-options.interface';
export { DEFAULT_AUTH_RATE_LIMIT } from './blog.module';
export {
  BLOG_ASYNC_OPTIONS_TYPE,
  BLOG_MODULE_OPTIONS,
  BLOG_OPTIONS_TYPE,
} from './blog.module-definition';
export { blogEntities } from './blog.entities';
export { migrations as blogMigrations } from './migrations';
export type { BlogContext } from './blog-context';
export type { Viewer } from './users/viewer';
export { ErrorCode, formatGraphQLError, reportUnexpectedErrors } from './common/errors';
export { AuthService } from './auth/auth.service';
export { UsersService } from './users/users.service';
export { PostsService } from './posts/posts.service';
export { CommentsService } from './comments/comments.service';
export { LikesService } from './likes/likes.service';
export { FollowsService } from './follows/follows.service';
export { User } from './users/user.entity';
export { Post } from './posts/post.entity';
export { Comment } from './comments/comment.entity';
export { Like } from './likes/like.entity';
export { Follow } from './follows/follow.entity';
export { blogGraphQLContext } from './subscriptions/graphql-context';
export {
  currentRequestScope,
  httpRequestScope,
  RequestScope,
  runInRequestScope,
} from './common/request-scope';
export { DEFAULT_MAX_RESPONSE_BYTES, limitedResultStringifier } from './common/response-size';
export { CompiledExecution, compiledExecutionGateway } from './execution/compiled-execution';
export type {
  CompiledExecutionOptions,
  CompiledExecutionStats,
} from './execution/compiled-execution';
export {
  BlogWebSocketServer,
  DEFAULT_SUBSCRIPTIONS_OPTIONS,
  WS_GOING_AWAY,
  WS_UNAUTHORIZED,
} from './subscriptions/websocket-server';
export type { SocketConnectionInfo } from './subscriptions/websocket-server';
export {
  BLOG_PUB_SUB,
  closePubSub,
  createInMemoryPubSub,
  createRedisPubSub,
} from './events/pub-sub';
export { RedisThrottlerStorage } from './limits/redis-throttler.storage';
export { DEFAULT_MAX_QUERY_COMPLEXITY } from './limits/operation-cost';
export { OperationRules } from './limits/operation-rules';
export {
  DEFAULT_WRITE_RATE_LIMIT,
  InMemoryWriteRateLimitStorage,
  RedisWriteRateLimitStorage,
} from './limits/write-rate-limit';
export type { WriteAllowance, WriteRateLimitStorage } from './limits/write-rate-limit-storage';
export {
  PERSISTED_QUERY_NOT_FOUND,
  TRUSTED_DOCUMENT_REQUIRED,
  TrustedDocuments,
  trustedDocumentsProblem,
} from './documents/trusted-documents';
export type { RateLimit } from './blog-options.interface';
