import { join } from 'node:path';

import { registerAs } from '@nestjs/config';

import { loadAppConfig } from './app.config';
import {
  InvalidEnvironmentError,
  readBoolean,
  readInteger,
  readOptionalString,
  readString,
} from './env';
import { SETTINGS } from './settings.schema';
import { loadSiteConfig } from './site.config';
import {
  checkLinkPath,
  checkMailFrom,
  checkSmtpUrl,
  parseTokenLifetime,
  TOKEN_LIFETIME_FORMAT,
} from '../blog';

/** Account e-mail: BlogModuleOptions.mail, from the environment. */
export interface MailConfig {
  /** The SMTP server; null: mails are written to `directory`. */
  smtpUrl: string | null;
  /** `DATA_DIR/mail`, where mails go without `smtpUrl`. */
  directory: string;
  /** The From; undefined for the module's default (`no-reply@` the links' host). */
  from: string | undefined;
  /** The links' origin: SITE_URL, else `http://localhost:{PORT}`. */
  linkBaseUrl: string;
  passwordResetPath: string;
  emailVerificationPath: string;
  /** In seconds. */
  passwordResetTtl: number;
  /** In seconds. */
  emailVerificationTtl: number;
  requireVerifiedEmail: boolean;
  /** Log each mail's link: in development, without SMTP. */
  logLinks: boolean;
  maxAttempts: number;
  retryBaseMs: number;
}

function readLifetime(
  env: NodeJS.ProcessEnv,
  setting: typeof SETTINGS.PASSWORD_RESET_TTL | typeof SETTINGS.EMAIL_VERIFICATION_TTL,
): number {
  const raw = readString(env, setting);
  const seconds = parseTokenLifetime(raw);
  if (seconds === undefined) {
    throw new InvalidEnvironmentError(
      setting.name,
      `expected ${TOKEN_LIFETIME_FORMAT}, got "${raw}"`,
    );
  }
  return seconds;
}

function readPath(
  env: NodeJS.ProcessEnv,
  setting: typeof SETTINGS.PASSWORD_RESET_PATH | typeof SETTINGS.EMAIL_VERIFICATION_PATH,
): string {
  const path = checkLinkPath(readString(env, setting));
  if (path instanceof Error) throw new InvalidEnvironmentError(setting.name, path.message);
  return path;
}

/**
 * The mail settings. Production with `SMTP_URL` needs `SITE_URL` (the links' origin) and
 * `MAIL_FROM` (a sender the provider signs for); elsewhere the links fall back to
 * `http://localhost:{PORT}` and the From to `no-reply@` their host.
 */
export function loadMailConfig(env: NodeJS.ProcessEnv = process.env): MailConfig {
  const app = loadAppConfig(env);
  const site = loadSiteConfig(env);
  const smtpUrl = readOptionalString(env, SETTINGS.SMTP_URL) ?? null;
  if (smtpUrl !== null) {
    const checked = checkSmtpUrl(smtpUrl);
    if (checked instanceof Error) throw new InvalidEnvironmentError('SMTP_URL', checked.message);
  }
  const rawFrom = readOptionalString(env, SETTINGS.MAIL_FROM);
  const from = rawFrom === undefined ? undefined : checkMailFrom(rawFrom);
  if (from instanceof Error) throw new InvalidEnvironmentError('MAIL_FROM', from.message);
  const production = app.nodeEnv === 'production';
  if (production && smtpUrl !== null) {
    if (!site.url) {
      throw new InvalidEnvironmentError(
        'SITE_URL',
        'is required in production when SMTP_URL is set: the links of account mails lead to it',
      );
    }
    if (from === undefined) {
      throw new InvalidEnvironmentError(
        'MAIL_FROM',
        'is required in production when SMTP_URL is set: a sender your mail provider signs for',
      );
    }
  }
  return {
    smtpUrl,
    directory: join(app.dataDir, 'mail'),
    from,
    linkBaseUrl: site.url ?? `http://localhost:${app.port}`,
    passwordResetPath: readPath(env, SETTINGS.PASSWORD_RESET_PATH),
    emailVerificationPath: readPath(env, SETTINGS.EMAIL_VERIFICATION_PATH),
    passwordResetTtl: readLifetime(env, SETTINGS.PASSWORD_RESET_TTL),
    emailVerificationTtl: readLifetime(env, SETTINGS.EMAIL_VERIFICATION_TTL),
    requireVerifiedEmail: readBoolean(env, SETTINGS.REQUIRE_VERIFIED_EMAIL),
    logLinks: app.nodeEnv === 'development' && smtpUrl === null,
    maxAttempts: readInteger(env, SETTINGS.MAIL_MAX_ATTEMPTS),
    retryBaseMs: readInteger(env, SETTINGS.MAIL_RETRY_BASE_MS),
  };
}

export const mailConfig = registerAs('mail', () => loadMailConfig());
