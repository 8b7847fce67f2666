import { parseTokenLifetime, TOKEN_LIFETIME_FORMAT } from '../auth/token-lifetime';

/**
 * Account e-mail (BlogModuleOptions.mail): how mail goes out, what the account mails link to,
 * how long their links live, and whether an unverified address may write. Every field has a
 * default; with neither `smtpUrl` nor `directory` no mail is sent at all.
 */
export interface BlogMailOptions {
  /**
   * The SMTP server: `smtp://user:password@host:587` upgrades with STARTTLS, which is required
   * unless the URL says `?requireTLS=false` (on a server of this machine, such as `127.0.0.1`, it
   * is taken when offered, unless the URL says `?requireTLS=true`); `smtps://...:465` speaks TLS
   * from the start.
   * Other query parameters set nodemailer's SMTP options (`tls.rejectUnauthorized=false`).
   */
  smtpUrl?: string;
  /** Without `smtpUrl`: the folder where each mail is written as an `.eml` file. */
  directory?: string;
  /** The From of every mail. Default `no-reply@` the host of the links. */
  from?: string;
  /**
   * The front-end origin (and base path) the links lead to: `linkBaseUrl` + the path +
   * `?token=…`. Default `site.url`; with mail on and neither set, the module refuses to start.
   */
  linkBaseUrl?: string;
  /** The front-end page of a password reset link. Default `/reset-password`. */
  passwordResetPath?: string;
  /** The front-end page of an address verification link. Default `/verify-email`. */
  emailVerificationPath?: string;
  /** How long a password reset link works: seconds or a duration (`30m`). Default `30m`. */
  passwordResetTtl?: string | number;
  /** How long a verification link works: seconds or a duration (`24h`). Default `24h`. */
  emailVerificationTtl?: string | number;
  /**
   * Accounts whose address is not verified may not write: every mutation but the account's own
   * (see OPEN_TO_UNVERIFIED) is FORBIDDEN with `extensions.reason` `EMAIL_NOT_VERIFIED`. Needs
   * mail on. Default false.
   */
  requireVerifiedEmail?: boolean;
  /**
   * Log each mail's link as it is queued, for development without a mail server. Such a link
   * resets a password: never in production. Default false.
   */
  logLinks?: boolean;
  /** Attempts to send one mail before it is given up. Default 8. */
  maxAttempts?: number;
  /** The wait before the first retry, in ms; each later one doubles it, jittered. Default 30,000. */
  retryBaseMs?: number;
}

/** The mail options with their defaults, checked: what the account mail code reads. */
export interface MailSettings {
  /** How mail goes out; null: no mail is sent, and none is queued. */
  transport: { smtpUrl: string } | { directory: string } | null;
  from: string;
  /** The links' origin and base path, without a trailing slash ('' with mail off). */
  linkBaseUrl: string;
  passwordResetPath: string;
  emailVerificationPath: string;
  passwordResetTtlMs: number;
  emailVerificationTtlMs: number;
  requireVerifiedEmail: boolean;
  logLinks: boolean;
  maxAttempts: number;
  retryBaseMs: number;
}

export const DEFAULT_PASSWORD_RESET_PATH = '/reset-password';
export const DEFAULT_EMAIL_VERIFICATION_PATH = '/verify-email';
export const DEFAULT_PASSWORD_RESET_TTL = '30m';
export const DEFAULT_EMAIL_VERIFICATION_TTL = '24h';
export const DEFAULT_MAIL_MAX_ATTEMPTS = 8;
export const DEFAULT_MAIL_RETRY_BASE_MS = 30_000;

/** A link page's rule: a path that starts with `/`, without spaces or a fragment. */
export function checkLinkPath(path: string): string | Error {
  if (!path.startsWith('/') || path.startsWith('//')) return new Error('must start with one /');
  if (/[\s#]/.test(path)) return new Error('may hold no space or #');
  return path;
}

/** An SMTP URL's rule: `smtp://` or `smtps://` with a host. The error never repeats the URL. */
export function checkSmtpUrl(url: string): string | Error {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return new Error('must be a URL such as smtp://user:password@mail.example.com:587');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    return new Error('must start with smtp:// (STARTTLS) or smtps:// (TLS)');
  }
  if (!parsed.hostname) return new Error('must name the server: smtp://host:port');
  return url;
}

/** A From's rule: `address@host` or `Name <address@host>`. */
export function checkMailFrom(from: string): string | Error {
  const trimmed = from.trim();
  if (!/^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(trimmed)) {
    return new Error('must be address@host or Name <address@host>');
  }
  return trimmed;
}

/** The host of the links, for the default From and the subjects. */
export function linkHost(linkBaseUrl: string): string {
  try {
    return new URL(linkBaseUrl).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

function lifetimeMs(name: string, value: string | number): number {
  const seconds = parseTokenLifetime(value);
  if (seconds === undefined) {
    throw new Error(
      `Invalid BlogModule option mail.${name}: expected ${TOKEN_LIFETIME_FORMAT}, got ${JSON.stringify(value)}`,
    );
  }
  return seconds * 1000;
}

function checked<T>(name: string, result: T | Error): T {
  if (result instanceof Error) {
    throw new Error(`Invalid BlogModule option mail.${name}: ${result.message}`);
  }
  return result;
}

function positiveInteger(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new Error(
      `Invalid BlogModule option mail.${name}: expected an integer of at least ${min}`,
    );
  }
  return value;
}

/**
 * The module's mail settings from its options; a bad option fails the module's start, naming it.
 * `siteUrl` is `site.url`, the links' default origin.
 */
export function mailSettings(
  mail: BlogMailOptions | undefined,
  siteUrl: string | null | undefined,
): MailSettings {
  const options = mail ?? {};
  const transport = options.smtpUrl
    ? { smtpUrl: checked('smtpUrl', checkSmtpUrl(options.smtpUrl)) }
    : options.directory
      ? { directory: options.directory }
      : null;
  const base = options.linkBaseUrl ?? siteUrl ?? '';
  if (transport && !base) {
    throw new Error(
      'BlogModule option mail: the links of account mails need site.url or mail.linkBaseUrl',
    );
  }
  const requireVerifiedEmail = options.requireVerifiedEmail ?? false;
  if (requireVerifiedEmail && !transport) {
    throw new Error(
      'BlogModule option mail.requireVerifiedEmail needs mail.smtpUrl or mail.directory: nobody could verify',
    );
  }
  const linkBaseUrl = base.replace(/\/+$/, '');
  return {
    transport,
    from: checked('from', checkMailFrom(options.from ?? `no-reply@${linkHost(linkBaseUrl)}`)),
    linkBaseUrl,
    passwordResetPath: checked(
      'passwordResetPath',
      checkLinkPath(options.passwordResetPath ?? DEFAULT_PASSWORD_RESET_PATH),
    ),
    emailVerificationPath: checked(
      'emailVerificationPath',
      checkLinkPath(options.emailVerificationPath ?? DEFAULT_EMAIL_VERIFICATION_PATH),
    ),
    passwordResetTtlMs: lifetimeMs(
      'passwordResetTtl',
      options.passwordResetTtl ?? DEFAULT_PASSWORD_RESET_TTL,
    ),
    emailVerificationTtlMs: lifetimeMs(
      'emailVerificationTtl',
      options.emailVerificationTtl ?? DEFAULT_EMAIL_VERIFICATION_TTL,
    ),
    requireVerifiedEmail,
    logLinks: options.logLinks ?? false,
    maxAttempts: positiveInteger(
      'maxAttempts',
      options.maxAttempts ?? DEFAULT_MAIL_MAX_ATTEMPTS,
      1,
    ),
    retryBaseMs: positiveInteger(
      'retryBaseMs',
      options.retryBaseMs ?? DEFAULT_MAIL_RETRY_BASE_MS,
      1,
    ),
  };
}
