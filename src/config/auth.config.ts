import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { registerAs } from '@nestjs/config';

import { loadAppConfig } from './app.config';
import {
  InvalidEnvironmentError,
  readBoolean,
  readEnum,
  readInteger,
  readOptionalString,
  readString,
} from './env';
import { SETTINGS, SIGN_UP_ROLES } from './settings.schema';
import { parseTokenLifetime, TOKEN_LIFETIME_FORMAT } from '../blog';

export interface AuthConfig {
  jwtSecret: string;
  /** Access token lifetime in seconds. */
  jwtExpiresIn: number;
  /** signUp/logIn attempts allowed per client address and window, and per email and window. */
  rateLimit: { limit: number; windowMs: number };
  /** Mutation fields a signed-in user may run a minute; 0 turns the limit off. */
  writesPerMinute: number;
  /** Accounts younger than this get a tenth of `writesPerMinute`; 0 turns it off. */
  newAccountHours: number;
  /** The role of new accounts, as GraphQL names it. */
  signUpRole: (typeof SIGN_UP_ROLES)[number];
  /** Moderation's rules: see BlogModuleOptions.moderation. */
  moderation: { holdNewAccountLinks: boolean; autoHideReports: number; reportsPerHour: number };
}

const SECRET_FILE = 'jwt-secret';

/**
 * Outside production a missing secret is generated once and kept in the data folder,
 * so that tokens survive restarts; production must set `JWT_SECRET`.
 */
export function loadAuthConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const app = loadAppConfig(env);
  const jwtExpiresIn = readTokenLifetime(env);
  const rateLimit = {
    limit: readInteger(env, SETTINGS.AUTH_RATE_LIMIT),
    windowMs: readInteger(env, SETTINGS.AUTH_RATE_LIMIT_WINDOW_MS),
  };
  const writesPerMinute = readInteger(env, SETTINGS.RATE_LIMIT_WRITES_PER_MINUTE);
  return {
    jwtSecret: readSecret(env, app.nodeEnv, app.dataDir),
    jwtExpiresIn,
    rateLimit,
    writesPerMinute,
    newAccountHours: readInteger(env, SETTINGS.NEW_ACCOUNT_HOURS),
    signUpRole: readEnum(env, SETTINGS.SIGN_UP_ROLE),
    moderation: {
      holdNewAccountLinks: readBoolean(env, SETTINGS.HOLD_NEW_ACCOUNT_LINKS),
      autoHideReports: readInteger(env, SETTINGS.MODERATION_AUTO_HIDE_REPORTS),
      reportsPerHour: readInteger(env, SETTINGS.REPORTS_PER_HOUR),
    },
  };
}

function readTokenLifetime(env: NodeJS.ProcessEnv): number {
  const raw = readString(env, SETTINGS.JWT_EXPIRES_IN);
  const seconds = parseTokenLifetime(raw);
  if (seconds === undefined) {
    throw new InvalidEnvironmentError(
      'JWT_EXPIRES_IN',
      `expected ${TOKEN_LIFETIME_FORMAT}, got "${raw}"`,
    );
  }
  return seconds;
}

function readSecret(env: NodeJS.ProcessEnv, nodeEnv: string, dataDir: string): string {
  const secret = readOptionalString(env, SETTINGS.JWT_SECRET);
  if (secret !== undefined) {
    const { minLength } = SETTINGS.JWT_SECRET;
    if (secret.length < minLength) {
      throw new InvalidEnvironmentError('JWT_SECRET', `must be at least ${minLength} characters`);
    }
    return secret;
  }
  if (nodeEnv === 'production') {
    throw new InvalidEnvironmentError('JWT_SECRET', 'is required when NODE_ENV=production');
  }
  return persistedSecret(dataDir);
}

function persistedSecret(dataDir: string): string {
  const file = join(dataDir, SECRET_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export const authConfig = registerAs('auth', () => loadAuthConfig());
