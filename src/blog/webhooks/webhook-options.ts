/** How webhooks are delivered (BlogModuleOptions.webhooks); every field has a default. */
export interface BlogWebhookOptions {
  /** The longest an attempt may take, look-up, connection and answer together, in ms. Default 10,000. */
  timeoutMs?: number;
  /** The wait before the first retry, in ms; later ones grow fourfold. Default 30,000. */
  retryBaseMs?: number;
  /** Attempts of an event in all, within 24 hours of it. Default 8. */
  maxAttempts?: number;
  /** Events in a row whose every attempt failed that disable a webhook; 0 never does. Default 50. */
  disableAfter?: number;
  /** How many days the delivery log keeps an attempt. Default 30. */
  logDays?: number;
  /** Allow http targets besides https. Default false. */
  allowHttp?: boolean;
  /**
   * Allow targets that resolve to loopback, private, link-local, shared (CGNAT) or reserved
   * addresses. Cloud metadata, multicast and unspecified addresses are refused regardless.
   * Default false.
   */
  allowPrivateAddresses?: boolean;
  /** Attempts one instance makes at once. Default 8. */
  concurrency?: number;
}

/** The defaults of {@link BlogWebhookOptions}. */
export const WEBHOOK_DEFAULTS: Readonly<Required<BlogWebhookOptions>> = {
  timeoutMs: 10_000,
  retryBaseMs: 30_000,
  maxAttempts: 8,
  disableAfter: 50,
  logDays: 30,
  allowHttp: false,
  allowPrivateAddresses: false,
  concurrency: 8,
};

/** The options with their defaults filled in. */
export function webhookSettings(options?: BlogWebhookOptions): Required<BlogWebhookOptions> {
  const given = Object.fromEntries(
    Object.entries(options ?? {}).filter(([, value]) => value !== undefined),
  );
  return { ...WEBHOOK_DEFAULTS, ...given };
}
