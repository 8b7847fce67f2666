import { DynamicModule, Module, Provider } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { getOptionsToken, ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';

import { AccessTokenService, blogJwtService } from './auth/access-token.service';
import { AccountEmailResolver } from './auth/account-email.resolver';
import { AccountEmailService } from './auth/account-email.service';
import { AccountMail } from './auth/account-mail.service';
import { AuthResolver } from './auth/auth.resolver';
import { AuthService } from './auth/auth.service';
import { EmailChanges } from './auth/email-changes';
import { PasswordService } from './auth/password.service';
import { ViewerGuard } from './auth/viewer.guard';
import { BlogFeatureSwitches } from './blog-feature';
import { blogFeatures } from './blog-features';
import { BlogLoadersFactory } from './blog-loaders';
import { BlogModuleOptions } from './blog-options.interface';
import { blogEntities } from './blog.entities';
import {
  BLOG_ASYNC_OPTIONS_TYPE,
  BLOG_MODULE_OPTIONS,
  BLOG_OPTIONS_TYPE,
  ConfigurableBlogModule,
} from './blog.module-definition';
import {
  CommentConnectionResolver,
  CommentsResolver,
  PostCommentsResolver,
} from './comments/comments.resolver';
import { CommentsService } from './comments/comments.service';
import { PostCommentsReader } from './comments/post-comments.reader';
import { Sql, SQL_OPTIONS, SqlOptions } from './common/sql';
import { TrustedDocuments } from './documents/trusted-documents';
import { TrustedDocumentsPlugin } from './documents/trusted-documents.plugin';
import { BlogEvents } from './events/blog-events';
import { BLOG_PUB_SUB, createInMemoryPubSub } from './events/pub-sub';
import { resolveBlogFeatures } from './features/feature-switches';
import { FeatureSchemaCheck } from './features/schema-check';
import { FeedResolver } from './feed/feed.resolver';
import { FeedService } from './feed/feed.service';
import { FollowsResolver } from './follows/follows.resolver';
import { FollowsService } from './follows/follows.service';
import { DEFAULT_IMAGE_DIR } from './images/image-options';
import { IMAGE_STORAGE } from './images/image-storage';
import { ImagesController } from './images/images.controller';
import { ImageConnectionResolver, ImagesResolver } from './images/images.resolver';
import { ImagesService } from './images/images.service';
import { LocalImageStorage } from './images/local-image-storage';
import { OrphanSweeper } from './images/orphan-sweeper';
import { LikesResolver } from './likes/likes.resolver';
import { LikesService } from './likes/likes.service';
import { AuthThrottlerGuard, authThrottlers } from './limits/auth-throttler.guard';
import { HideSuggestionsPlugin } from './limits/hide-suggestions.plugin';
import { LogInLimiter } from './limits/log-in-limits';
import { OperationLimitsPlugin } from './limits/operation-limits.plugin';
import { OperationRules } from './limits/operation-rules';
import { WriteRateLimiter } from './limits/write-rate-limit';
import { mailSettings } from './mail/mail-options';
import { MAIL_SETTINGS, MailOutbox } from './mail/mail-outbox';
import {
  ModerationLogConnectionResolver,
  ModerationLogResolver,
} from './moderation/moderation-log.resolver';
import { ModerationLogService } from './moderation/moderation-log.service';
import {
  ModerationItemConnectionResolver,
  ModerationQueueResolver,
  ReportResolver,
} from './moderation/moderation-queue.resolver';
import { ModerationQueueService } from './moderation/moderation-queue.service';
import {
  ModerationResolver,
  PostModerationResolver,
  UserBanResolver,
} from './moderation/moderation.resolver';
import { ModerationService } from './moderation/moderation.service';
import { ReportsResolver } from './moderation/reports.resolver';
import { ReportsService } from './moderation/reports.service';
import { PostConnectionResolver } from './posts/post-connection.resolver';
import { PostDetailReader } from './posts/post-detail-reader';
import { PostScheduler } from './posts/post-scheduler';
import { PostSearchIndex } from './posts/post-search-index';
import { PostUrls } from './posts/post-urls';
import { PostsResolver } from './posts/posts.resolver';
import { PostsService } from './posts/posts.service';
import { SubscriptionFanOut } from './subscriptions/event-fan-out';
import { SubscriptionsResolver } from './subscriptions/subscriptions.resolver';
import { BlogWebSocketServer } from './subscriptions/websocket-server';
import { SyndicationController } from './syndication/syndication.controller';
import { SyndicationService } from './syndication/syndication.service';
import { UsersResolver } from './users/users.resolver';
import { UsersService } from './users/users.service';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher';
import { webhookOptionsProvider } from './webhooks/webhook-options.provider';
import { WebhookOutbox } from './webhooks/webhook-outbox';
import { WebhookConnectionResolver, WebhooksResolver } from './webhooks/webhooks.resolver';
import { WebhooksService } from './webhooks/webhooks.service';

/**
 * The blog's GraphQL types, resolvers and services. The host application owns the TypeORM root
 * (with `autoLoadEntities` or {@link blogEntities}, and {@link blogMigrations}) and the GraphQL
 * root; import this module with `BlogModule.forRoot(options)` or `BlogModule.forRootAsync(...)`.
 * The optional features (`features`) register their providers only when on.
 */
@Module({
  imports: [TypeOrmModule.forFeature(blogEntities)],
  controllers: [SyndicationController, ImagesController],
  providers: [
    { provide: JwtService, inject: [BLOG_MODULE_OPTIONS], useFactory: blogJwtService },
    {
      provide: BLOG_PUB_SUB,
      inject: [BLOG_MODULE_OPTIONS],
      useFactory: (options: BlogModuleOptions) => options.pubSub ?? createInMemoryPubSub(),
    },
    BlogEvents,
    OperationRules,
    WriteRateLimiter,
    TrustedDocuments,
    TrustedDocumentsPlugin,
    OperationLimitsPlugin,
    HideSuggestionsPlugin,
    SubscriptionFanOut,
    BlogWebSocketServer,
    { provide: getOptionsToken(), inject: [BLOG_MODULE_OPTIONS], useFactory: authThrottlers },
    {
      provide: ThrottlerStorage,
      inject: [BLOG_MODULE_OPTIONS],
      useFactory: (options: BlogModuleOptions) =>
        options.throttlerStorage ?? new ThrottlerStorageService(),
    },
    AuthThrottlerGuard,
    LogInLimiter,
    PasswordService,
    {
      provide: MAIL_SETTINGS,
      inject: [BLOG_MODULE_OPTIONS],
      useFactory: (options: BlogModuleOptions) => mailSettings(options.mail, options.site?.url),
    },
    MailOutbox,
    AccountMail,
    EmailChanges,
    AuthService,
    AccountEmailService,
    AccountEmailResolver,
    AccessTokenService,
    ViewerGuard,
    {
      provide: SQL_OPTIONS,
      inject: [BLOG_MODULE_OPTIONS],
      useFactory: (options: BlogModuleOptions): SqlOptions => options.database ?? {},
    },
    Sql,
    BlogLoadersFactory,
    UsersService,
    PostsService,
    PostSearchIndex,
    CommentsService,
    ModerationLogService,
    ModerationService,
    ReportsService,
    ModerationQueueService,
    PostCommentsReader,
    { provide: PostDetailReader, useExisting: PostCommentsReader },
    LikesService,
    FollowsService,
    FeedService,
    AuthResolver,
    UsersResolver,
    PostsResolver,
    PostUrls,
    PostScheduler,
    PostConnectionResolver,
    CommentsResolver,
    PostCommentsResolver,
    CommentConnectionResolver,
    ModerationResolver,
    UserBanResolver,
    PostModerationResolver,
    ModerationLogResolver,
    ModerationLogConnectionResolver,
    ReportsResolver,
    ModerationQueueResolver,
    ReportResolver,
    ModerationItemConnectionResolver,
    LikesResolver,
    FollowsResolver,
    FeedResolver,
    SyndicationService,
    SubscriptionsResolver,
    FeatureSchemaCheck,
    webhookOptionsProvider,
    WebhookOutbox,
    WebhookDispatcher,
    WebhooksService,
    WebhooksResolver,
    WebhookConnectionResolver,
    {
      provide: IMAGE_STORAGE,
      inject: [BLOG_MODULE_OPTIONS],
      useFactory: (options: BlogModuleOptions) =>
        options.images?.storage ??
        new LocalImageStorage(DEFAULT_IMAGE_DIR, 'http://localhost:3000/images'),
    },
    ImagesService,
    ImagesResolver,
    ImageConnectionResolver,
    OrphanSweeper,
  ],
  exports: [
    WebhooksService,
    UsersService,
    PostsService,
    PostUrls,
    CommentsService,
    LikesService,
    FollowsService,
    ModerationService,
    ReportsService,
    AuthService,
    AccessTokenService,
    OperationRules,
    TrustedDocuments,
    BLOG_PUB_SUB,
    BLOG_MODULE_OPTIONS,
    ImagesService,
    IMAGE_STORAGE,
  ],
})
export class BlogModule extends ConfigurableBlogModule {
  /** The module with these options and the providers of the features they leave on. */
  static forRoot(options: typeof BLOG_OPTIONS_TYPE): DynamicModule {
    return withFeatureProviders(super.forRoot(options), options.features);
  }

  /** The module with options from a factory, and the providers of the features left on. */
  static forRootAsync(options: typeof BLOG_ASYNC_OPTIONS_TYPE): DynamicModule {
    return withFeatureProviders(super.forRootAsync(options), options.features);
  }
}

/** The features' providers are known when the module is defined: the schema is built from them. */
function withFeatureProviders(
  definition: DynamicModule,
  features: BlogFeatureSwitches | undefined,
): DynamicModule {
  const switches = resolveBlogFeatures(features);
  const providers = blogFeatures
    .filter((feature) => switches[feature.name])
    .flatMap((feature) => feature.providers);
  return {
    ...definition,
    providers: [...(definition.providers ?? []), ...providers],
    exports: [...(definition.exports ?? []), ...providers.map(tokenOf)],
  };
}

function tokenOf(provider: Provider) {
  return typeof provider === 'function' ? provider : provider.provide;
}
