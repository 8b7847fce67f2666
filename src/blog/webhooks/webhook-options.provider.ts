import { Provider } from '@nestjs/common';

import { BlogWebhookOptions, webhookSettings } from './webhook-options';
import type { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';

/** The webhooks' options with their defaults, and the key their secrets are sealed under. */
export interface WebhookOptionsResolved extends Required<BlogWebhookOptions> {
  jwtSecret: string;
}

/** The injection token of {@link WebhookOptionsResolved}. */
export const WEBHOOK_OPTIONS = Symbol('WEBHOOK_OPTIONS');

export const webhookOptionsProvider: Provider = {
  provide: WEBHOOK_OPTIONS,
  inject: [BLOG_MODULE_OPTIONS],
  useFactory: (options: BlogModuleOptions): WebhookOptionsResolved => ({
    ...webhookSettings(options.webhooks),
    jwtSecret: options.jwtSecret,
  }),
};
