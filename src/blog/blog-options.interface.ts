import type { IncomingMessage } from 'node:http';

import type { ThrottlerStorage } from '@nestjs/throttler';
import type { PubSubEngine } from 'graphql-subscriptions';

import type { BlogFeatureSwitches } from './blog-feature';
import type { SqlOptions } from './common/sql';
import type { BlogImagesOptions } from './images/image-options';
import type { WriteRateLimitStorage } from './limits/write-rate-limit-storage';
import type { BlogMailOptions } from './mail/mail-options';
import type { BlogSiteOptions } from './posts/post-urls';
import type { Role } from './users/roles';
import type { BlogWebhookOptions } from './webhooks/webhook-options';

/** At most `limit` attempts (per client address, email or user) in `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** The blog's graphql-ws endpoint; every field has a default. */
export interface BlogSubscriptionsOptions {
  /** The path of the endpoint on the host's HTTP server. Default `/graphql`. */
  path?: string;
  /** The largest message a client may send. Default 1 MiB. */
  maxPayloadBytes?: number;
  /** Subscriptions open at once on one connection. Default 50. */
  maxSubscriptionsPerConnection?: number;
  /** Subscriptions open at once from one client address, on all its connections. Default 500. */
  maxSubscriptionsPerClient?: number;
  /** Subscriptions open at once on this instance, from every client. Default 10,000. */
  maxSubscriptions?: number;
  /** Connections open at once from one client address; more are refused with 429. Default 100. */
  maxConnectionsPerClient?: number;
  /**
   * The client address of an upgrade request, for the per-client cap. Default: the socket's
   * remote address; behind a proxy, read the forwarded address you trust.
   */
  clientAddress?: (request: IncomingMessage) => string;
}

/** The shape limits of one GraphQL document; every field has a default. */
export interface DocumentLimits {
  /** Nesting of selections, fragments followed. Default 12. */
  maxDepth?: number;
  /** Aliases in one operation, `__typename` included. Default 30. */
  maxAliases?: number;
  /** Directives in one operation. Default 50. */
  maxDirectives?: number;
  /** Lexical tokens, enforced by the parser. Default 15,000. */
  maxTokens?: number;
}

/** Settings of a BlogModule instance. */
export interface BlogModuleOptions {
  /** The HS256 key that signs and checks access tokens; at least 32 characters. */
  jwtSecret: string;
  /**
   * Token lifetime: seconds (`3600` or `'3600'`) or a duration such as `'15m'` or `'7d'`, at
   * least one second; defaults to `'7d'`. A bad value fails the module's start.
   */
  jwtExpiresIn?: string | number;
  /**
   * Carries subscription events. Defaults to an in-process PubSub (one instance); pass
   * `createRedisPubSub(url, prefix)` when several instances serve the same clients.
   */
  pubSub?: PubSubEngine;
  /**
   * The highest estimated cost of one operation (each field 1, a list field its page size
   * times its selection); costlier operations are refused before they run. Default 20,000.
   */
  maxQueryComplexity?: number;
  /**
   * How many expensive fields one operation may run: those whose work grows with the posts
   * whatever their page size (`searchPosts`, `postsConnection`'s `totalCount`, the lists filtered
   * by `tags`, a tag's `posts`). Aliases count each, fragments are expanded, and only the
   * operation that runs is read; more are refused before anything runs (GRAPHQL_VALIDATION_FAILED,
   * `extensions.limit` `expensiveFields`). Each is also priced by its work in the cost. Default 3.
   */
  maxExpensiveFields?: number;
  /**
   * The largest answer of one operation, in bytes of JSON (default 4 MiB), on HTTP and for each
   * subscription event. Resolvers of large texts charge it while the answer is built and
   * execution stops once it is passed; the client gets one RESPONSE_TOO_LARGE error. Over HTTP
   * the final size is checked where the answer is serialised: pass
   * `stringifyResult: limitedResultStringifier(maxResponseBytes)` to Apollo.
   */
  maxResponseBytes?: number;
  /**
   * How many matches of a search are ranked: the most recently written published posts that
   * match, so that a common word or a short prefix costs no more than this many. Older matches
   * are left out of the answer. Default 1,000.
   */
  searchRankWindow?: number;
  /**
   * How the blog's statements use the database: SQLite's reader threads and the statement time
   * budget. See {@link SqlOptions}; every field has a default.
   */
  database?: SqlOptions;
  /**
   * Depth, alias, directive and token limits, checked before the cost on HTTP and on the
   * WebSocket. The token limit needs the host's parser too: pass
   * `OperationRules.parseOptions`-equal `parseOptions: { maxTokens }` to Apollo.
   */
  documentLimits?: DocumentLimits;
  /**
   * How many `signUp` attempts and password checks (`logIn`, `changePassword`, `deleteAccount`)
   * one address may make; how many `signUp` attempts may name one email (normalised); how many
   * `changePassword` and `deleteAccount` one signed-in user may make; and how many `logIn`
   * attempts one address may make on one email. `logIn` also has two ceilings for addresses that
   * have not signed in to the email in the past week: 5 times the limit per email in 60 times
   * the window, and 100 times the limit per window in all. The account e-mail mutations count
   * too: `requestPasswordReset` per address and per email, `requestEmailVerification` per address
   * and per user, `resetPassword` and `verifyEmail` per address. Default: 10 a minute.
   */
  authRateLimit?: RateLimit;
  /**
   * Writes per signed-in user: every root mutation field of a request counts, aliases included,
   * and a request that does not fit is refused whole before anything runs. Default: 120 a
   * minute; `false` (or a limit of 0) turns it off.
   */
  writeRateLimit?: RateLimit | false;
  /**
   * Accounts younger than this many hours get a tenth of `writeRateLimit` (rounded down, at
   * least one write), so that a fresh sign-up cannot flood the blog. Default 24; 0 turns it off.
   */
  newAccountHours?: number;
  /** The rules of moderation: see {@link ModerationOptions}. */
  moderation?: ModerationOptions;
  /**
   * The role `signUp` gives new accounts: `Role.AUTHOR` (the default) publishes at once,
   * `Role.CONTRIBUTOR` writes drafts for an editor to review.
   */
  signUpRole?: Role;
  /**
   * Where the write counters live, and the `logIn` counters and known addresses. Defaults to
   * process memory (one instance); pass a `RedisWriteRateLimitStorage` when several instances
   * serve the same clients. Writes and log-ins are refused (SERVICE_UNAVAILABLE) while it cannot
   * answer.
   */
  writeRateLimitStorage?: WriteRateLimitStorage;
  /**
   * Where the attempt counters live. Defaults to process memory (one instance); pass a
   * `RedisThrottlerStorage` when several instances serve the same clients.
   */
  throttlerStorage?: ThrottlerStorage;
  /**
   * The graphql-ws endpoint the module serves on the host's HTTP server (subscriptions only),
   * or false for none. Do not also set the GraphQLModule's own `subscriptions`.
   */
  subscriptions?: BlogSubscriptionsOptions | false;
  /**
   * Strip "Did you mean ...?" suggestions from every error, validation and variable errors
   * included, on HTTP and on the WebSocket; pair it with Apollo's
   * `hideSchemaDetailsFromClientErrors`. Set both where introspection is off.
   */
  hideSchemaDetails?: boolean;
  /**
   * Trusted documents: lower-case sha256 hex hash to document text (GraphQL Code Generator's
   * `persisted-documents.json`), each hash checked at start-up. Requests may then send
   * `documentId` (`sha256:<hex>` or `<hex>`) instead of `query`; with `only`, nothing else runs.
   * An unknown `documentId` is always refused.
   */
  trustedDocuments?: TrustedDocumentsOptions;
  /**
   * Where the front-end shows posts: with `url` (its public origin), `Post.url` is a post's
   * address and the feeds are served; without it `url` is null and the feeds answer 404.
   */
  site?: BlogSiteOptions;
  /**
   * Account e-mail: password resets and address verification, sent through an outbox over SMTP
   * (`smtpUrl`) or written as `.eml` files (`directory`); without either no mail is sent. The
   * links lead to `linkBaseUrl` (default `site.url`). See {@link BlogMailOptions}.
   */
  mail?: BlogMailOptions;
  /**
   * Uploaded images (`POST /images`): where their files are stored, and the limits of an upload.
   * See {@link BlogImagesOptions}; every field has a default. On Fastify, the host registers
   * `@fastify/multipart` on its instance.
   */
  images?: BlogImagesOptions;
  /**
   * Webhooks: how their deliveries are sent, retried and logged, and which targets they may
   * reach. See {@link BlogWebhookOptions}; every field has a default.
   */
  webhooks?: BlogWebhookOptions;
  /**
   * The optional features (search, tags, notifications, bookmarks), each on unless set to
   * `false`. A feature left out has no providers and, with the GraphQL root's
   * `transformSchema: blogSchemaTransform(features)`, nothing in the schema; the module refuses
   * to start if the served schema still has any of it. Give it to `forRoot` with the other
   * options, or to `forRootAsync` beside `useFactory`, never from the factory: the schema is
   * built first. In the injected options every feature's switch is set.
   */
  features?: BlogFeatureSwitches;
}

/** The documents a client may name by `documentId`, and whether only those run. */
export interface TrustedDocumentsOptions {
  documents: Record<string, string>;
  /** Refuse every document sent as text. Default false. */
  only?: boolean;
}

/** The rules of moderation (BlogModuleOptions.moderation). */
export interface ModerationOptions {
  /**
   * Hold for review the comments with links of accounts younger than `newAccountHours`
   * (`status: HELD`, shown to their author and moderators). Default false.
   */
  holdNewAccountLinks?: boolean;
  /** A post reported by this many distinct users is hidden until a moderator decides; 0 turns it off. Default 5. */
  autoHideReports?: number;
  /** Reports one user may make an hour. Default 10. */
  reportsPerHour?: number;
}
