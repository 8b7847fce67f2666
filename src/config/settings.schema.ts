// The settings schema: every environment variable the service reads, with its group, default,
// allowed values and description. The loaders take their defaults and bounds from it
// (`readInteger(env, SETTINGS.PORT)`), and `npm run docs:settings` writes docs/reference/settings.md
// and .env.example from it, so what is documented is what is validated (STYLE habit 15). It
// imports nothing: tracing loads it before http, graphql and pg may be required.

/**
 * The standard OpenTelemetry variables that the tracing SDK reads itself once tracing is on,
 * besides those of the schema (`OTEL_SERVICE_NAME`).
 */
export const OTHER_OTEL_SDK_SETTINGS = [
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'OTEL_EXPORTER_OTLP_TIMEOUT',
  'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_BSP_SCHEDULE_DELAY',
  'OTEL_BSP_EXPORT_TIMEOUT',
  'OTEL_BSP_MAX_QUEUE_SIZE',
  'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
] as const;

/** The sections of .env.example and of the reference page, in their order. */
export const SETTING_GROUPS = {
  service: {
    title: 'Service',
    intro: 'The process: its mode, where it listens, where it keeps its files and how it stops.',
  },
  database: {
    title: 'Database',
    intro:
      'SQLite needs nothing set: the service creates its file in `DATA_DIR`. PostgreSQL needs `DATABASE_URL`.',
  },
  auth: {
    title: 'Accounts and tokens',
    intro: 'Access tokens, and the limits that keep password guessing and writes slow.',
  },
  mail: {
    title: 'Account e-mail',
    intro:
      'Password reset and address verification mails, sent from an outbox in the database. Without `SMTP_URL` each mail is written as an `.eml` file under `DATA_DIR/mail`, and in development its link is logged. The links lead to `SITE_URL` + the page path + `?token=…`; without `SITE_URL`, to `http://localhost:{PORT}`, which production refuses once `SMTP_URL` is set.',
  },
  redis: {
    title: 'Redis',
    intro:
      'Unset, the service is one process. Several instances share subscription events, rate-limit counters and log-in marks through Redis.',
  },
  browsers: {
    title: 'Browsers',
    intro: 'What web pages on other origins may call, and what a browser is served.',
  },
  site: {
    title: 'Site',
    intro:
      'Where the front-end shows posts. `Post.url`, the canonical fallback of `Post.seo` and the feeds need `SITE_URL`; without it they are null, and the feeds answer 404.',
  },
  images: {
    title: 'Images',
    intro:
      'Uploads at `POST /images`: where their files are stored, and the limits of an upload. Refused uploads answer 413, 415 or 429 before anything is stored.',
  },
  webhooks: {
    title: 'Webhooks',
    intro:
      'How the deliveries of webhooks are sent, retried and logged, and which addresses they may reach. Admins make webhooks through the API; see [Webhooks](../how-to/webhooks.md).',
  },
  graphql: {
    title: 'GraphQL',
    intro:
      'What the API serves, and the limits every document is held to before anything runs: a refused document answers HTTP 400 with `GRAPHQL_VALIDATION_FAILED` and `extensions.limit`, and no statement runs.',
  },
  jit: {
    title: 'Compiled execution',
    intro:
      'Plain queries that run again and again are compiled with graphql-jit; a differential test holds their answers to those of graphql-js.',
  },
  websocket: {
    title: 'WebSocket',
    intro:
      'Limits of the graphql-ws endpoint, which carries subscriptions. Client addresses honour `TRUST_PROXY`.',
  },
  http: {
    title: 'HTTP',
    intro:
      'Limits of the HTTP server, so that slow or idle clients cannot hold connections and one busy client cannot crowd out the rest. Client addresses honour `TRUST_PROXY`.',
  },
  observability: {
    title: 'Logs, metrics and traces',
    intro:
      'Logs go to standard output; metrics and traces are off until asked for. Passwords, tokens, the `authorization` header, GraphQL variables and SQL parameters are never logged, at any level. ' +
      'Once tracing is on, the OpenTelemetry SDK reads its other standard variables too: ' +
      `${OTHER_OTEL_SDK_SETTINGS.map((name) => `\`${name}\``).join(', ')}.`,
  },
  scripts: {
    title: 'Scripts',
    intro: 'Read by `npm run check:contract`, not by the service.',
  },
} as const;

export type SettingGroup = keyof typeof SETTING_GROUPS;

/**
 * A default that depends on other settings, which the loader computes: `words` say how, for the
 * reader, and `example` is the value .env.example shows (the default in development on SQLite;
 * empty for unset).
 */
export interface ComputedDefault {
  readonly words: string;
  readonly example: string;
}

/** The integer setting whose value bounds another, such as `HTTP_MAX_CONNECTIONS`. */
export interface SettingBound {
  readonly setting: string;
}

interface SettingBase {
  readonly name: string;
  readonly group: SettingGroup;
  /** Who reads it, when not the service: the OpenTelemetry SDK, or the npm scripts. */
  readonly readBy?: 'opentelemetry' | 'scripts';
  /** One sentence: the comment above it in .env.example, and the start of its reference entry. */
  readonly summary: string;
  /** The rest of its reference entry (Markdown, one paragraph). */
  readonly details?: string;
  /** The allowed values in words, where they are more than the type and bounds say. */
  readonly allowed?: string;
}

export interface IntegerSetting extends SettingBase {
  readonly type: 'integer';
  readonly default: number | ComputedDefault;
  readonly min: number;
  readonly max: number | SettingBound;
  readonly unit?: 'ms' | 'bytes';
}

/** `true`, `1`, `yes`, `on` or `false`, `0`, `no`, `off`, in any case. */
export interface BooleanSetting extends SettingBase {
  readonly type: 'boolean';
  readonly default: boolean | ComputedDefault;
}

export interface EnumSetting<T extends string = string> extends SettingBase {
  readonly type: 'enum';
  readonly values: readonly T[];
  readonly default: T | ComputedDefault;
}

/** Free text that its loader checks; `default: null` is unset, and `allowed` says what fits. */
export interface TextSetting extends SettingBase {
  readonly type: 'text';
  readonly default: string | null | ComputedDefault;
  readonly allowed: string;
  readonly minLength?: number;
}

export type Setting = IntegerSetting | BooleanSetting | EnumSetting | TextSetting;

type SettingSpec = Setting extends infer S ? (S extends Setting ? Omit<S, 'name'> : never) : never;

/** A default that the loader computes from other settings; see {@link ComputedDefault}. */
export function computed(words: string, example = ''): ComputedDefault {
  return { words, example };
}

export function isComputed(value: unknown): value is ComputedDefault {
  return typeof value === 'object' && value !== null && 'words' in value;
}

/** The specs keyed by name, each given its name, their literal types kept for the readers. */
function defineSettings<const T extends Record<string, SettingSpec>>(
  specs: T,
): { readonly [K in keyof T & string]: T[K] & { readonly name: K } } {
  return Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, { name, ...spec }]),
  ) as never;
}

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const LOG_FORMATS = ['json', 'pretty'] as const;
/** The roles a new account may get: never ADMIN, which only an admin or the operator gives. */
export const SIGN_UP_ROLES = ['AUTHOR', 'CONTRIBUTOR', 'EDITOR'] as const;
/** The OTLP encodings the service can send: protobuf or JSON, over HTTP (no gRPC). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;

const IN_DEVELOPMENT = computed('`true` in development, else `false`', 'true');
const OUTSIDE_PRODUCTION = computed('`true` outside production, `false` in production', 'true');
const ADDRESS_RANGES =
  "IP addresses and CIDR ranges in [proxy-addr](https://www.npmjs.com/package/proxy-addr)'s syntax, comma-separated (`10.0.0.0/8,127.0.0.1`, or the named ranges `loopback`, `linklocal` and `uniquelocal`)";

/** Every setting, in the order of the reference page and .env.example. */
export const SETTINGS = defineSettings({
  NODE_ENV: {
    group: 'service',
    type: 'enum',
    values: NODE_ENVS,
    default: 'development',
    summary: 'The mode the service runs in.',
    details:
      '`production` seeds no demo, turns introspection, the IDE and CORS for any origin off, listens on every interface, writes JSON logs and requires `JWT_SECRET`. `test` is as development, except that it seeds no demo, serves no IDE, writes no schema file and writes JSON logs.',
  },
  PORT: {
    group: 'service',
    type: 'integer',
    default: 3000,
    min: 0,
    max: 65535,
    summary: 'The HTTP port.',
    details:
      '`0` takes a free port. A port in use stops the service once the app has started, naming `PORT`.',
  },
  HOST: {
    group: 'service',
    type: 'text',
    default: computed(
      '`127.0.0.1` outside production (this machine only), `0.0.0.0` in production',
      '127.0.0.1',
    ),
    allowed: 'an IP address, or a host name that resolves within 2 s (no scheme, no port)',
    summary: 'The address to listen on.',
    details:
      "Outside production on an address that is not loopback, the demo users get a random password. A host name that does not resolve, or an address that is not this machine's, stops the service naming `HOST`.",
  },
  DATA_DIR: {
    group: 'service',
    type: 'text',
    default: './data',
    allowed: 'a folder',
    summary: 'The folder of the default SQLite file and of the generated development JWT secret.',
  },
  SEED_DEMO: {
    group: 'service',
    type: 'boolean',
    default: IN_DEVELOPMENT,
    summary:
      'Seed a demo (three users, their posts, follows, likes and a comment) on an empty database.',
  },
  TRUST_PROXY: {
    group: 'service',
    type: 'integer',
    default: 0,
    min: 0,
    max: 10,
    allowed: `a number of proxies from 0 to 10, or their ${ADDRESS_RANGES}`,
    summary:
      'The proxies in front of the service (load balancers) whose `X-Forwarded-For` gives the client address: their number, or their addresses and CIDR ranges.',
    details:
      'The client address is what rate limits, connection caps and logs count by. A number is believed from any peer, so the port must then be reachable from the proxies only; addresses and ranges are believed from those peers only.',
  },
  SHUTDOWN_TIMEOUT_MS: {
    group: 'service',
    type: 'integer',
    default: 10_000,
    min: 1000,
    max: 600_000,
    unit: 'ms',
    summary:
      'How long a shutdown waits for requests in flight before cutting their connections, in ms.',
    details: 'A shutdown (`SIGTERM` or `SIGINT`) that has to cut connections exits with code 1.',
  },

  DATABASE_URL: {
    group: 'database',
    type: 'text',
    default: computed('the SQLite file `blog.sqlite` in `DATA_DIR` (`sqlite:./data/blog.sqlite`)'),
    allowed:
      '`sqlite:<path>`, `sqlite::memory:` or `postgres://user:password@host:5432/database` (`postgresql://` too), with special characters of the user, password or database percent-encoded (a `%` as `%25`)',
    summary:
      'The database: `sqlite:<path>`, `sqlite::memory:` or `postgres://user:password@host:5432/database`.',
    details:
      'PostgreSQL is tried once before the app starts. A connection that fails for good (a database that does not exist, a wrong password, a refused role, a host name that does not resolve) stops the service at once; a server that is not up yet is waited for, 10 attempts 3 s apart. Messages never quote the URL, which may hold a password.',
  },
  DATABASE_POOL_SIZE: {
    group: 'database',
    type: 'integer',
    default: 10,
    min: 1,
    max: 1000,
    summary: 'PostgreSQL connections per instance.',
    details: 'One operation holds at most half of them. Not read on SQLite.',
  },
  DATABASE_STATEMENT_TIMEOUT_MS: {
    group: 'database',
    type: 'integer',
    default: 10_000,
    min: 0,
    max: 3_600_000,
    unit: 'ms',
    summary:
      'The longest one statement of a request may run, in ms (`0`: no limit), on both databases.',
    details:
      'Past it the operation gets `STATEMENT_TIMEOUT`: PostgreSQL cancels the statement; SQLite gives the read up and replaces its reader thread. The search migrations that index or rewrite every post lift it for themselves.',
  },
  DATABASE_READ_WORKERS: {
    group: 'database',
    type: 'integer',
    default: 2,
    min: 0,
    max: 64,
    summary:
      'SQLite: worker threads that run reads off the event loop (`0`: every statement on the main thread).',
    details:
      'Each has a read-only connection of its own and runs the reads whose work grows with the data (searches, counts, filters by tags) outside transactions, so that a long read never stalls other clients; one operation holds at most half of them. An in-memory database (`sqlite::memory:`) runs every statement on the main thread. Not read on PostgreSQL.',
  },
  DATABASE_LOGGING: {
    group: 'database',
    type: 'boolean',
    default: false,
    summary: 'Log every SQL statement (never its parameters).',
  },

  JWT_SECRET: {
    group: 'auth',
    type: 'text',
    default: computed('generated and kept in `DATA_DIR` outside production'),
    allowed: 'at least 32 characters',
    minLength: 32,
    summary:
      'The HS256 key that signs access tokens, at least 32 characters; required in production.',
    details:
      'Outside production a missing secret is generated once and kept in `DATA_DIR/jwt-secret`, so that tokens survive restarts. A name in `.env` one typo away (`JWT_SECRT`) stops the service rather than leave the generated one in use.',
  },
  JWT_EXPIRES_IN: {
    group: 'auth',
    type: 'text',
    default: '7d',
    allowed: 'a lifetime of at least 1 s, as seconds (`3600`) or a duration (`15m`, `12h`, `7d`)',
    summary: 'The lifetime of an access token: seconds (3600) or 15m, 12h, 7d.',
    details:
      'Read with `ms`: a bare number is seconds, otherwise a number with one of the units `s`, `m`, `h`, `d`, `w`, `y` (365.25 days) or their long forms (`1.5h`, `2 hours`). `0`, negative values, anything under a second (`500ms`) and compound durations (`15m30s`) are refused.',
  },
  AUTH_RATE_LIMIT: {
    group: 'auth',
    type: 'integer',
    default: 10,
    min: 1,
    max: 1_000_000,
    summary:
      '`signUp` attempts and password checks per client address and per window of `AUTH_RATE_LIMIT_WINDOW_MS`.',
    details:
      'Also per email for `signUp`, per user for `changePassword` and `deleteAccount`, and per email and address for `logIn`, which has two ceilings besides: 5 × this per email from all addresses in 60 windows, and 100 × this per window on the whole service, not counting addresses that signed in to that email in the past 7 days. Past a limit the answer is `TOO_MANY_REQUESTS` with `retryAfter`. With `REDIS_URL` every instance shares the counters.',
  },
  AUTH_RATE_LIMIT_WINDOW_MS: {
    group: 'auth',
    type: 'integer',
    default: 60_000,
    min: 1000,
    max: 86_400_000,
    unit: 'ms',
    summary: 'The window of `AUTH_RATE_LIMIT`, in ms.',
  },
  RATE_LIMIT_WRITES_PER_MINUTE: {
    group: 'auth',
    type: 'integer',
    default: 120,
    min: 0,
    max: 1_000_000,
    summary:
      'Mutation fields a signed-in user may run a minute, aliases included (`0` turns the limit off).',
    details:
      "An operation's fields are taken all or none before anything runs; past the limit the answer is `TOO_MANY_REQUESTS` with `retryAfter` (HTTP 429). With `REDIS_URL` every instance shares the counters.",
  },
  NEW_ACCOUNT_HOURS: {
    group: 'auth',
    type: 'integer',
    default: 24,
    min: 0,
    max: 8_760,
    summary:
      'Accounts younger than this many hours get a tenth of `RATE_LIMIT_WRITES_PER_MINUTE`, rounded down (at least 1); `0` turns it off.',
    details:
      "With 20 writes a minute, a new account's third write in a minute is `TOO_MANY_REQUESTS`. The account keeps one counter as it comes of age, with the full allowance from then on.",
  },
  SIGN_UP_ROLE: {
    group: 'auth',
    type: 'enum',
    values: SIGN_UP_ROLES,
    default: 'AUTHOR',
    summary: 'The role `signUp` gives new accounts.',
    details:
      '`AUTHOR` publishes their own posts at once; `CONTRIBUTOR` writes drafts and submits them for review; `EDITOR` also publishes and rejects the posts submitted. Admins are made with `npm run user:admin` and `setUserRole`, never by signing up. See [Roles and review](api/roles.md).',
  },

  HOLD_NEW_ACCOUNT_LINKS: {
    group: 'auth',
    type: 'boolean',
    default: false,
    summary:
      'Hold for review the comments with links of accounts younger than `NEW_ACCOUNT_HOURS`.',
    details:
      'A held comment (`status: HELD`) is shown only to its author and to moderators, until a moderator restores it with `restoreComment`. See [Moderation](api/moderation.md).',
  },
  MODERATION_AUTO_HIDE_REPORTS: {
    group: 'auth',
    type: 'integer',
    default: 5,
    min: 0,
    max: 1_000,
    summary:
      'A post reported by this many distinct users is hidden until a moderator decides; `0` turns it off.',
    details:
      'A published comment is hidden the same way. Only the reports of the open item count, so after a moderator has resolved them a target needs as many new reporters; dismissing the reports brings it back. See [Moderation](api/moderation.md#auto-hide).',
  },
  REPORTS_PER_HOUR: {
    group: 'auth',
    type: 'integer',
    default: 10,
    min: 1,
    max: 10_000,
    summary: 'Reports (`reportPost`, `reportComment`) one user may make an hour.',
    details:
      'Counted in the database, so every instance shares the count; past it the answer is `TOO_MANY_REQUESTS` with `retryAfter`. Reporting a target again counts nothing. See [Moderation](api/moderation.md#reporting).',
  },

  SMTP_URL: {
    group: 'mail',
    type: 'text',
    default: computed('unset (each mail is written to `DATA_DIR/mail` as an `.eml` file)'),
    allowed:
      '`smtp://user:password@host:587` (STARTTLS) or `smtps://user:password@host:465` (TLS); query parameters set other nodemailer SMTP options',
    summary: 'The SMTP server that account mails go to, through nodemailer.',
    details:
      '`smtp://` must upgrade with STARTTLS: a server that offers none gets no mail, unless the URL ends in `?requireTLS=false`. A server on this machine (`localhost`, `127.0.0.1`, `::1`: a local relay, a test server) is upgraded when it offers STARTTLS, its certificate unchecked, and spoken to in plain SMTP when not, since nothing crosses a network; `?requireTLS=true` requires TLS there too. `smtps://` speaks TLS from the start. Other nodemailer options go in the query (`?tls.rejectUnauthorized=false`, `&name=host`). Messages never quote the URL, which may hold a password. See [Run in production](../how-to/run-in-production.md#send-mail).',
  },
  MAIL_FROM: {
    group: 'mail',
    type: 'text',
    default: computed('`no-reply@` the host of `SITE_URL` (`no-reply@localhost` without it)'),
    allowed: '`address@host` or `Name <address@host>`',
    summary: 'The From of every account mail.',
    details:
      'Required in production once `SMTP_URL` is set: a domain whose SPF and DKIM your mail provider signs for, or receivers file the mail as spam.',
  },
  PASSWORD_RESET_TTL: {
    group: 'mail',
    type: 'text',
    default: '30m',
    allowed: 'a lifetime of at least 1 s, as seconds (`1800`) or a duration (`30m`, `2h`)',
    summary: 'How long a password reset link works, read as `JWT_EXPIRES_IN` is.',
  },
  EMAIL_VERIFICATION_TTL: {
    group: 'mail',
    type: 'text',
    default: '24h',
    allowed: 'a lifetime of at least 1 s, as seconds (`86400`) or a duration (`24h`, `7d`)',
    summary: 'How long an address verification link works, read as `JWT_EXPIRES_IN` is.',
  },
  PASSWORD_RESET_PATH: {
    group: 'mail',
    type: 'text',
    default: '/reset-password',
    allowed: 'a path that starts with one `/`, without spaces or `#`',
    summary:
      "The front-end's page that a password reset link opens, under `SITE_URL`; the link adds `?token=…`.",
  },
  EMAIL_VERIFICATION_PATH: {
    group: 'mail',
    type: 'text',
    default: '/verify-email',
    allowed: 'a path that starts with one `/`, without spaces or `#`',
    summary:
      "The front-end's page that a verification link opens, under `SITE_URL`; the link adds `?token=…`.",
  },
  REQUIRE_VERIFIED_EMAIL: {
    group: 'mail',
    type: 'boolean',
    default: false,
    summary: 'Refuse the writes of accounts whose address is not verified.',
    details:
      'Their mutations answer `FORBIDDEN` with `extensions.reason` `EMAIL_NOT_VERIFIED`, but those of their own account: logging in and out, the password, `updateProfile` (to correct the address), asking for and following a verification link, deleting the account, and marking notifications read. Accounts made before this version start unverified. See [Password reset and address verification](../how-to/password-reset-and-verification.md).',
  },
  MAIL_MAX_ATTEMPTS: {
    group: 'mail',
    type: 'integer',
    default: 8,
    min: 1,
    max: 100,
    summary: 'Attempts to send one mail before it is given up and logged at error level.',
    details:
      'A server that refuses the recipient for good (a 5xx answer to it) ends the attempts at once.',
  },
  MAIL_RETRY_BASE_MS: {
    group: 'mail',
    type: 'integer',
    default: 30_000,
    min: 1,
    max: 3_600_000,
    unit: 'ms',
    summary:
      'The wait before the first retry of a mail that failed, in ms; each later wait doubles, jittered, up to 6 hours.',
  },

  REDIS_URL: {
    group: 'redis',
    type: 'text',
    default: computed('unset (one process, its events and counters in memory)'),
    allowed: '`redis://host:6379` or `rediss://user:password@host:6380/0`',
    summary:
      'The Redis through which instances share subscription events and rate-limit counters, such as `redis://host:6379`.',
    details: 'Messages never quote the URL, which may hold a password.',
  },
  REDIS_PREFIX: {
    group: 'redis',
    type: 'text',
    default: 'blog:',
    allowed: 'any text',
    summary: 'The prefix of the keys and pub/sub channels the service writes in Redis.',
    details:
      'Redis does not separate pub/sub by database number: deployments that share a Redis need different prefixes.',
  },

  CORS_ORIGINS: {
    group: 'browsers',
    type: 'text',
    default: computed('`*` outside production, none in production', '*'),
    allowed:
      '`*`, `none`, or a comma-separated list of origins such as `https://app.example.com` (scheme, host and port; no path, no wildcard)',
    summary:
      'The origins that may call the API from a browser: `*`, `none` or a comma-separated list.',
    details:
      "Any origin is safe for tokens: they travel in the `authorization` header, not in cookies, so a page on another origin cannot borrow a user's session.",
  },
  GRAPHIQL: {
    group: 'browsers',
    type: 'boolean',
    default: IN_DEVELOPMENT,
    summary: 'Serve the GraphiQL IDE at `GET /graphql` to browsers.',
  },

  SITE_URL: {
    group: 'site',
    type: 'text',
    default: null,
    allowed:
      'an absolute http(s) URL such as `https://blog.example.com`, optionally with a base path; no user name, password, query or fragment',
    summary:
      "The front-end's public origin: posts' `url`, and the links of the feeds and the sitemap.",
    details:
      'Unset, `Post.url` is null and `/feed.xml`, `/feed.atom`, `/feed.json` and `/sitemap.xml` answer 404: a feed without links is useless.',
  },
  SITE_POST_PATH: {
    group: 'site',
    type: 'text',
    default: '/posts/{slug}',
    allowed: 'a path that starts with `/` and holds `{slug}` or `{id}`',
    summary: "A post's path on the front-end, under `SITE_URL`.",
  },
  FEED_CONTENT: {
    group: 'site',
    type: 'enum',
    values: ['excerpt', 'full'],
    default: 'excerpt',
    summary: "What a feed item carries: the post's excerpt, or its sanitised HTML.",
  },

  STORAGE: {
    group: 'images',
    type: 'enum',
    values: ['local', 's3'],
    default: 'local',
    summary: 'Where uploaded images are stored: `local` (under `DATA_DIR/images`) or `s3`.',
    details:
      '`local` keeps the files under `DATA_DIR/images` and serves them at `GET /images/{id}/{name}`; their URLs start with `IMAGE_PUBLIC_BASE_URL`, else `SITE_URL` + `/images` (the front-end then forwards `/images` to the service), else `http://localhost:{PORT}/images`. Several instances need `s3`, or one shared folder.',
  },
  IMAGE_MAX_BYTES: {
    group: 'images',
    type: 'integer',
    default: 10 * 1024 * 1024,
    min: 1024,
    max: 100 * 1024 * 1024,
    unit: 'bytes',
    summary: 'The largest upload, in bytes; a larger one is refused with 413 as it streams in.',
  },
  IMAGE_MAX_PIXELS: {
    group: 'images',
    type: 'integer',
    default: 40_000_000,
    min: 1,
    max: 268_402_689,
    summary:
      'The most pixels (width × height) of an uploaded image, read from its header before anything is decoded; more is refused with 413.',
    details:
      'A decompression bomb (a small file claiming 50,000 × 50,000 pixels) costs a header read.',
  },
  IMAGE_QUOTA_BYTES: {
    group: 'images',
    type: 'integer',
    default: 200 * 1024 * 1024,
    min: 0,
    max: 2 ** 40,
    unit: 'bytes',
    summary:
      "The stored bytes each user may have, every image's variants included; an upload past it is refused with 413.",
  },
  IMAGE_PROCESSING_CONCURRENCY: {
    group: 'images',
    type: 'integer',
    default: 2,
    min: 1,
    max: 64,
    summary:
      "Uploads processed at once, each on sharp's threads (libuv's pool), never on the event loop.",
  },
  IMAGE_PROCESSING_QUEUE: {
    group: 'images',
    type: 'integer',
    default: 16,
    min: 0,
    max: 1000,
    summary:
      'Uploads that may wait for processing, their bytes in memory; one more is refused with 429 before its body is read.',
  },
  IMAGE_PUBLIC_BASE_URL: {
    group: 'images',
    type: 'text',
    default: computed(
      "with `STORAGE=local`, `SITE_URL` + `/images`, else `http://localhost:{PORT}/images`; with `STORAGE=s3`, the bucket's own URL: `{S3_ENDPOINT}/{S3_BUCKET}`, or `https://{S3_BUCKET}.s3.{S3_REGION}.amazonaws.com` on AWS",
    ),
    allowed:
      'an absolute http(s) URL such as `https://images.example.com`, optionally with a base path; no user name, password, query or fragment',
    summary:
      'The public base of image URLs, such as a CDN in front of the bucket: a file `images/{id}/{name}` is at `{IMAGE_PUBLIC_BASE_URL}/images/{id}/{name}` on S3.',
    details:
      'On local storage a file is at `{IMAGE_PUBLIC_BASE_URL}/{id}/{name}`: point it at where `GET /images` of the service is reached. URLs are absolute, so Markdown and other sites can use them as they are.',
  },
  S3_BUCKET: {
    group: 'images',
    type: 'text',
    default: null,
    allowed:
      'a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or a digit',
    summary: 'The bucket of the image files; required with `STORAGE=s3`.',
    details:
      "The service writes, lists and deletes objects under `images/` in it. Credentials come from the AWS SDK's usual chain: `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (and `AWS_SESSION_TOKEN`), `AWS_PROFILE` with its files, or the role of the container or instance. See [Run in production](../how-to/run-in-production.md#images-in-a-bucket-behind-a-cdn).",
  },
  S3_ENDPOINT: {
    group: 'images',
    type: 'text',
    default: computed('unset (AWS S3 in `S3_REGION`)'),
    allowed:
      'an http(s) URL such as `https://minio.example.com:9000`; no user name, password, query or fragment',
    summary:
      'An S3-compatible server instead of AWS (MinIO, Garage, Ceph, Cloudflare R2...), such as `https://minio.example.com:9000`.',
  },
  S3_REGION: {
    group: 'images',
    type: 'text',
    default: 'us-east-1',
    allowed: 'a region name such as `eu-west-3` (R2: `auto`)',
    summary: "The bucket's region, which signs every request.",
    details:
      "`AWS_REGION` is not read: a bucket elsewhere than `S3_REGION` is refused by S3, and the log names the bucket's region.",
  },
  S3_FORCE_PATH_STYLE: {
    group: 'images',
    type: 'boolean',
    default: computed('`true` with `S3_ENDPOINT`, else `false`'),
    summary:
      'Address the bucket by path (`{S3_ENDPOINT}/{S3_BUCKET}/{key}`) rather than by host name (`{S3_BUCKET}.{host}`).',
    details: 'Most S3-compatible servers want paths; AWS wants host names.',
  },
  S3_TIMEOUT_MS: {
    group: 'images',
    type: 'integer',
    default: 10_000,
    min: 100,
    max: 600_000,
    unit: 'ms',
    summary:
      'The longest one request to the bucket may take, retries included, in ms; past it the upload or deletion answers `SERVICE_UNAVAILABLE` (HTTP 503).',
    details:
      'A bucket that refuses or cannot be reached answers the same, and the log says why; nothing of the bucket reaches the client.',
  },

  WEBHOOK_TIMEOUT_MS: {
    group: 'webhooks',
    type: 'integer',
    default: 10_000,
    min: 100,
    max: 20_000,
    unit: 'ms',
    summary:
      'The longest one delivery attempt may take: the look-up of the host, the connection and the answer together.',
    details:
      'Past it the attempt fails and is retried. An attempt is claimed for this long plus 5 s, so that one cut short by a crash is made again within 25 s of the restart.',
  },
  WEBHOOK_RETRY_BASE_MS: {
    group: 'webhooks',
    type: 'integer',
    default: 30_000,
    min: 1,
    max: 3_600_000,
    unit: 'ms',
    summary:
      'The wait before the first retry of a failed delivery; each later one waits 4 times longer.',
    details:
      'Each wait is spread by ±20 % (jitter), and no retry comes later than 24 hours after the event: with the default the retries wait about 30 s, 2 min, 8 min, 32 min, 2 h and 8.5 h, and the eighth attempt comes at 24 h.',
  },
  WEBHOOK_MAX_ATTEMPTS: {
    group: 'webhooks',
    type: 'integer',
    default: 8,
    min: 1,
    max: 20,
    summary: 'Attempts of one event to one webhook in all, the first included, within 24 hours.',
  },
  WEBHOOK_DISABLE_AFTER: {
    group: 'webhooks',
    type: 'integer',
    default: 50,
    min: 0,
    max: 100_000,
    summary:
      'Events in a row whose every attempt failed that disable a webhook, and tell every admin; `0` never disables one.',
    details:
      'A success sets the count back to 0, and so does enabling the webhook again (`updateWebhook`).',
  },
  WEBHOOK_LOG_DAYS: {
    group: 'webhooks',
    type: 'integer',
    default: 30,
    min: 1,
    max: 3650,
    summary: 'How many days the delivery log (`Webhook.deliveries`) keeps an attempt.',
  },
  WEBHOOK_CONCURRENCY: {
    group: 'webhooks',
    type: 'integer',
    default: 8,
    min: 1,
    max: 256,
    summary: 'Delivery attempts one instance makes at once; more wait in the outbox.',
  },
  WEBHOOK_ALLOW_HTTP: {
    group: 'webhooks',
    type: 'boolean',
    default: false,
    summary: 'Allow `http://` targets besides `https://`.',
  },
  WEBHOOK_ALLOW_PRIVATE: {
    group: 'webhooks',
    type: 'boolean',
    default: false,
    summary:
      'Allow targets that resolve to loopback, private, link-local, shared (CGNAT) or reserved addresses.',
    details:
      'Off, such an attempt fails without a connection, and the log says why. Cloud metadata addresses (`169.254.169.254`, `fd00:ec2::254`, `metadata.google.internal`...), multicast and unspecified addresses are refused even when on.',
  },

  BLOG_FEATURES: {
    group: 'graphql',
    type: 'text',
    default: 'all',
    allowed:
      '`all`, `none`, or a comma-separated list of `search`, `tags`, `notifications`, `bookmarks` (case and spaces ignored)',
    summary:
      'The optional features served: `all`, `none`, or a comma-separated list of `search`, `tags`, `notifications`, `bookmarks`.',
    details:
      'A feature left out has nothing in the schema (its types, fields, input fields and arguments) and no providers; the rest works as before.',
  },
  GRAPHQL_INTROSPECTION: {
    group: 'graphql',
    type: 'boolean',
    default: OUTSIDE_PRODUCTION,
    summary: 'Allow introspection.',
    details: 'Where it is off, "Did you mean" suggestions are removed from every error too.',
  },
  GRAPHQL_SCHEMA_FILE: {
    group: 'graphql',
    type: 'text',
    default: 'schema.gql',
    allowed: 'a file path',
    summary: 'Where development writes the generated SDL.',
    details:
      'It is the schema served, so it lacks the features left out. Read in development only; elsewhere the schema stays in memory.',
  },
  GRAPHQL_MAX_COMPLEXITY: {
    group: 'graphql',
    type: 'integer',
    default: 20_000,
    min: 1,
    max: 10_000_000,
    summary: 'The highest estimated cost of one operation.',
    details:
      'A field costs 1; a list or a connection 1 plus its page size (at least 1) times its selection; `totalCount` 100; an expensive field its work, and a long text 1 per thousand characters it may hold, times the page sizes above it. Fragments are expanded, so a fragment bomb is charged its fan-out.',
  },
  GRAPHQL_MAX_EXPENSIVE_FIELDS: {
    group: 'graphql',
    type: 'integer',
    default: 3,
    min: 0,
    max: 1000,
    summary:
      "Expensive fields in one operation: searches, `postsConnection`'s `totalCount`, lists filtered by tags and a tag's posts.",
    details:
      'Their work grows with the posts whatever their page size. Aliases count each; fragments are expanded.',
  },
  GRAPHQL_MAX_RESPONSE_BYTES: {
    group: 'graphql',
    type: 'integer',
    default: 4 * 1024 * 1024,
    min: 1024,
    max: 2 ** 30,
    unit: 'bytes',
    summary: 'The largest answer of one operation or subscription event, in bytes of JSON.',
    details:
      'Long texts charge their length as they resolve, and the first charge past the budget stops the operation. An answer past the limit is replaced by one `RESPONSE_TOO_LARGE` error with `data: null`; over the WebSocket the event is replaced and the subscription goes on.',
  },
  GRAPHQL_MAX_DEPTH: {
    group: 'graphql',
    type: 'integer',
    default: 12,
    min: 1,
    max: 1000,
    summary: 'The selection depth of one document, fragments followed (introspection exempt).',
  },
  GRAPHQL_MAX_ALIASES: {
    group: 'graphql',
    type: 'integer',
    default: 30,
    min: 0,
    max: 100_000,
    summary: 'Aliases in one operation, `__typename` included.',
  },
  GRAPHQL_MAX_DIRECTIVES: {
    group: 'graphql',
    type: 'integer',
    default: 50,
    min: 0,
    max: 100_000,
    summary: 'Directives in one operation.',
  },
  GRAPHQL_MAX_TOKENS: {
    group: 'graphql',
    type: 'integer',
    default: 15_000,
    min: 100,
    max: 10_000_000,
    summary: 'Lexical tokens of one document.',
    details: 'The parser stops past it: `GRAPHQL_PARSE_FAILED`.',
  },
  SEARCH_RANK_WINDOW: {
    group: 'graphql',
    type: 'integer',
    default: 1000,
    min: 1,
    max: 1_000_000,
    summary:
      'How many of the most recently written published posts that match a search are ranked and listed.',
    details:
      'Older matches are left out, however many match; a search counts its window in the cost of its operation.',
  },
  TRUSTED_DOCUMENTS: {
    group: 'graphql',
    type: 'text',
    default: null,
    allowed:
      'the path of a JSON manifest `{ "<sha256 hex>": "<document>" }`, such as the `persisted-documents.json` of GraphQL Code Generator\'s client preset',
    summary:
      'The manifest of trusted documents (sha256 hex to document); clients may then send `documentId` instead of the text.',
    details:
      'Every hash is checked at start-up: a file that cannot be read or that is wrong stops the service naming the variable.',
  },
  TRUSTED_DOCUMENTS_ONLY: {
    group: 'graphql',
    type: 'boolean',
    default: false,
    summary: 'Refuse every document that is not in the manifest.',
    details:
      'Needs `TRUSTED_DOCUMENTS`. A document sent as text is refused before it is parsed: `BAD_REQUEST` with `extensions.reason: TRUSTED_DOCUMENT_REQUIRED`.',
  },

  GRAPHQL_JIT: {
    group: 'jit',
    type: 'boolean',
    default: true,
    summary: 'Run repeated plain queries compiled by graphql-jit.',
  },
  GRAPHQL_JIT_COMPILE_AFTER: {
    group: 'jit',
    type: 'integer',
    default: 4,
    min: 0,
    max: 1_000_000,
    summary: 'Runs on graphql-js before a document is queued for compiling.',
  },
  GRAPHQL_JIT_COMPILES_PER_MINUTE: {
    group: 'jit',
    type: 'integer',
    default: 60,
    min: 1,
    max: 100_000,
    summary: 'Compiles a minute at most.',
  },
  GRAPHQL_JIT_MAX_SELECTIONS: {
    group: 'jit',
    type: 'integer',
    default: 250,
    min: 1,
    max: 10_000,
    summary: 'The largest selection compiled (fields, fragments expanded).',
    details: 'A larger document runs on graphql-js.',
  },
  GRAPHQL_JIT_MAX_DOCUMENTS: {
    group: 'jit',
    type: 'integer',
    default: 500,
    min: 1,
    max: 100_000,
    summary: 'Compiled documents kept, in number.',
    details: 'The least recently used go first.',
  },
  GRAPHQL_JIT_MAX_BYTES: {
    group: 'jit',
    type: 'integer',
    default: 32 * 1024 * 1024,
    min: 1024,
    max: 2 ** 31,
    unit: 'bytes',
    summary: 'Compiled documents kept, in estimated bytes.',
    details: 'The least recently used go first.',
  },

  WS_MAX_PAYLOAD_BYTES: {
    group: 'websocket',
    type: 'integer',
    default: 1_048_576,
    min: 1024,
    max: 16_777_216,
    unit: 'bytes',
    summary: 'The largest WebSocket message, in bytes.',
    details: 'A larger one closes the socket with `1009`.',
  },
  WS_MAX_SUBSCRIPTIONS: {
    group: 'websocket',
    type: 'integer',
    default: 50,
    min: 1,
    max: 10_000,
    summary: 'Subscriptions open at once on one WebSocket connection.',
    details: 'More get `TOO_MANY_REQUESTS`.',
  },
  WS_MAX_SUBSCRIPTIONS_PER_CLIENT: {
    group: 'websocket',
    type: 'integer',
    default: 500,
    min: 1,
    max: 1_000_000,
    summary: 'Subscriptions open at once from one client address, on all its connections.',
    details: 'More get `TOO_MANY_REQUESTS`.',
  },
  WS_MAX_SUBSCRIPTIONS_TOTAL: {
    group: 'websocket',
    type: 'integer',
    default: 10_000,
    min: 1,
    max: 1_000_000,
    summary: 'Subscriptions open at once on one instance.',
    details: 'More get `TOO_MANY_REQUESTS`.',
  },
  WS_MAX_CONNECTIONS_PER_CLIENT: {
    group: 'websocket',
    type: 'integer',
    default: 100,
    min: 1,
    max: 100_000,
    summary: 'WebSocket connections open at once from one client address.',
    details: 'More get HTTP 429 on upgrade.',
  },

  GRAPHQL_MAX_BODY_BYTES: {
    group: 'http',
    type: 'integer',
    default: 102_400,
    min: 1024,
    max: 104_857_600,
    unit: 'bytes',
    summary: 'The largest HTTP request body, in bytes; larger ones get 413.',
  },
  HTTP_REQUEST_TIMEOUT_MS: {
    group: 'http',
    type: 'integer',
    default: 10_000,
    min: 100,
    max: 600_000,
    unit: 'ms',
    summary: "A request's headers and body must arrive within this time, in ms (else 408).",
    details: 'The connection is then closed.',
  },
  HTTP_CONNECTION_TIMEOUT_MS: {
    group: 'http',
    type: 'integer',
    default: 60_000,
    min: 100,
    max: 3_600_000,
    unit: 'ms',
    summary: 'A socket with no traffic for this long is closed, in ms.',
  },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: {
    group: 'http',
    type: 'integer',
    default: 5000,
    min: 100,
    max: 600_000,
    unit: 'ms',
    summary: 'How long an idle keep-alive connection stays open between requests, in ms.',
  },
  HTTP_MAX_CONNECTIONS: {
    group: 'http',
    type: 'integer',
    default: 2000,
    min: 1,
    max: 1_000_000,
    summary: 'Open connections (HTTP and WebSocket) per instance; more are dropped.',
  },
  HTTP_MAX_CONNECTIONS_PER_CLIENT: {
    group: 'http',
    type: 'integer',
    default: computed(
      'a tenth of `HTTP_MAX_CONNECTIONS`, at least 1 (`200` at its default)',
      '200',
    ),
    min: 1,
    max: { setting: 'HTTP_MAX_CONNECTIONS' },
    summary: 'Open connections (HTTP and WebSocket) of one client address.',
    details:
      "A trusted proxy's address may hold three times as many. Past it, the client's keep-alive connections idle for a second are closed to make room, and otherwise a new one gets 429 with `Retry-After`.",
  },
  HTTP_CLIENT_CAP_EXEMPT: {
    group: 'http',
    type: 'text',
    default: null,
    allowed: ADDRESS_RANGES,
    summary:
      'Client addresses and CIDR ranges that `HTTP_MAX_CONNECTIONS_PER_CLIENT` does not apply to (a server-side-rendering front-end, an internal gateway), such as `10.0.3.0/24,192.0.2.7`.',
  },
  HTTP_MAX_REQUESTS_IN_FLIGHT: {
    group: 'http',
    type: 'integer',
    default: computed(
      'twice `DATABASE_POOL_SIZE` on PostgreSQL (at most `HTTP_MAX_CONNECTIONS`), else `0`',
      '0',
    ),
    min: 0,
    max: { setting: 'HTTP_MAX_CONNECTIONS' },
    summary:
      'GraphQL requests over HTTP started and not answered yet (`0`: no cap); more wait, clients taking turns.',
    details:
      "A waiting request whose client leaves never starts. Past twice the pool, a started request on PostgreSQL would only wait for a connection at each of its statements; SQLite's statements wait for no connection, so there is no cap there by default.",
  },

  LOG_LEVEL: {
    group: 'observability',
    type: 'enum',
    values: LOG_LEVELS,
    default: 'info',
    summary: 'The lowest level written; `silent` writes nothing.',
    details:
      'At `debug` or `trace`, or with `DATABASE_LOGGING`, the request id is on every line of a request, at some cost in throughput on Node 22.',
  },
  LOG_FORMAT: {
    group: 'observability',
    type: 'enum',
    values: LOG_FORMATS,
    default: computed('`pretty` in development, else `json`', 'pretty'),
    summary: "One JSON object a line, or pino-pretty's coloured lines for a terminal.",
  },
  METRICS_ENABLED: {
    group: 'observability',
    type: 'boolean',
    default: false,
    summary: 'Serve `GET /metrics` in the Prometheus text format.',
    details: 'Off, `/metrics` answers 404.',
  },
  METRICS_TOKEN: {
    group: 'observability',
    type: 'text',
    default: null,
    allowed: 'printable characters, no spaces',
    summary: 'When set, `/metrics` wants `Authorization: Bearer <token>`.',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    group: 'observability',
    type: 'text',
    default: computed('unset (no traces)'),
    allowed: 'an http(s) URL, such as `http://127.0.0.1:4318`',
    summary:
      'The OTLP/HTTP endpoint of a trace collector, such as `http://127.0.0.1:4318`: traces (OpenTelemetry) are sent only when an endpoint is set.',
    details: 'Without one, none of the OpenTelemetry SDK is loaded.',
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    group: 'observability',
    type: 'text',
    default: null,
    allowed: 'an http(s) URL, such as `http://127.0.0.1:4318/v1/traces`',
    summary:
      "The traces' own full URL, such as `http://127.0.0.1:4318/v1/traces`, which wins over `OTEL_EXPORTER_OTLP_ENDPOINT`.",
  },
  OTEL_EXPORTER_OTLP_PROTOCOL: {
    group: 'observability',
    type: 'enum',
    values: OTLP_PROTOCOLS,
    default: 'http/protobuf',
    summary: 'The encoding of the traces, over HTTP (no gRPC).',
  },
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: {
    group: 'observability',
    type: 'enum',
    values: OTLP_PROTOCOLS,
    default: computed('the value of `OTEL_EXPORTER_OTLP_PROTOCOL`', 'http/protobuf'),
    summary: "The traces' own protocol, which wins over `OTEL_EXPORTER_OTLP_PROTOCOL`.",
  },
  OTEL_SDK_DISABLED: {
    group: 'observability',
    type: 'boolean',
    default: false,
    summary: '`true` sends no traces, whatever the endpoint.',
  },
  OTEL_SERVICE_NAME: {
    group: 'observability',
    readBy: 'opentelemetry',
    type: 'text',
    default: 'blog-graphql',
    allowed: 'any text',
    summary: 'The service name on its spans.',
  },

  CONTRACT_FILE: {
    group: 'scripts',
    readBy: 'scripts',
    type: 'text',
    default: '../shared/api.graphql',
    allowed: 'a file path',
    summary: 'The public contract that the generated schema must hold.',
  },
  CONTRACT_CHECK: {
    group: 'scripts',
    readBy: 'scripts',
    type: 'text',
    default: null,
    allowed: '`skip`',
    summary: '`skip`: pass when the contract file is missing, instead of failing.',
    details: 'As `--if-present` does.',
  },
});

export type SettingName = keyof typeof SETTINGS;

/** Every setting, in the order of the reference page and .env.example. */
export const SETTING_LIST: readonly Setting[] = Object.values(SETTINGS);
