import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

import { config } from 'dotenv';

/**
 * Loads `.env` of the working directory into `env` with dotenv, as @nestjs/config's
 * ConfigModule does: a variable already set in the real environment wins. The entry points call
 * it first, so that what they read before the ConfigModule exists (PORT, HOST, TRUST_PROXY,
 * OTEL_*, the CLI's DATABASE_URL) comes from the same file. Returns the names the file sets.
 */
export function loadEnvFile(
  path = resolve(process.cwd(), '.env'),
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  if (!existsSync(path)) return [];
  const { parsed, error } = config({ path, processEnv: env, quiet: true });
  if (error) throw error;
  return Object.keys(parsed ?? {});
}
