import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { parse } from 'dotenv';

/**
 * Loads `.env` of the working directory into `env` as @nestjs/config's ConfigModule does:
 * dotenv's parser, and a variable already set in the real environment wins. The entry points
 * call it first, so that what they read before the ConfigModule exists (PORT, HOST,
 * TRUST_PROXY, OTEL_*, the CLI's DATABASE_URL) comes from the same file.
 */
export function loadEnvFile(
  path = resolve(process.cwd(), '.env'),
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (!existsSync(path)) return;
  for (const [name, value] of Object.entries(parse(readFileSync(path)))) {
    if (!(name in env)) env[name] = value;
  }
}
