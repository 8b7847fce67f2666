import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { registerAs } from '@nestjs/config';

import { loadAppConfig } from './app.config';
import { InvalidEnvironmentError, readInteger, readOptionalString, readString } from './env';
import { SETTINGS } from './settings.schema';
import { parseTokenLifetime, TOKEN_LIFETIME_FORMAT } from '../blog';

export interface AuthConfig {
  jwtSecret: string;
  /** Access token lifetime in seconds. */
  jwtExpiresIn: number;
  /** signUp/logIn attempts allowed per client address and window, and per email and window. */
  rateLimit: { limit: number; windowMs: number };
  /** Mutation fields a signed-in user may run a minute; 0 turns the limit off. */
  writesPerMinute: number;
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
