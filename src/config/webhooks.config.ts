import { registerAs } from '@nestjs/config';

import type { BlogWebhookOptions } from '../blog';
import { readBoolean, readInteger } from './env';
import { SETTINGS } from './settings.schema';

/** How webhooks are delivered: BlogModuleOptions.webhooks, every field set. */
export type WebhooksConfig = Required<BlogWebhookOptions>;

export function loadWebhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  return {
    timeoutMs: readInteger(env, SETTINGS.WEBHOOK_TIMEOUT_MS),
    retryBaseMs: readInteger(env, SETTINGS.WEBHOOK_RETRY_BASE_MS),
    maxAttempts: readInteger(env, SETTINGS.WEBHOOK_MAX_ATTEMPTS),
    disableAfter: readInteger(env, SETTINGS.WEBHOOK_DISABLE_AFTER),
    logDays: readInteger(env, SETTINGS.WEBHOOK_LOG_DAYS),
    concurrency: readInteger(env, SETTINGS.WEBHOOK_CONCURRENCY),
    allowHttp: readBoolean(env, SETTINGS.WEBHOOK_ALLOW_HTTP),
    allowPrivateAddresses: readBoolean(env, SETTINGS.WEBHOOK_ALLOW_PRIVATE),
  };
}

export const webhooksConfig = registerAs('webhooks', () => loadWebhooksConfig());
