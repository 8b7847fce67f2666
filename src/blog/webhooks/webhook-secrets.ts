import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** The prefix of a Standard Webhooks secret: `whsec_` and the base64 of its key. */
const PREFIX = 'whsec_';
/** The bytes of a new signing key. */
const KEY_BYTES = 32;
/** The form of a sealed secret: `v1.<iv>.<ciphertext and tag>`, base64url. */
const SEALED = /^v1\.([\w-]{16})\.([\w-]+)$/;

/** A new signing secret in the Standard Webhooks format: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(KEY_BYTES).toString('base64')}`;
}

/**
 * Seals and opens the webhooks' signing secrets with AES-256-GCM, under a key derived (HKDF) from
 * the module's `jwtSecret`: a copy of the database alone (a backup, a dump) does not give away
 * the secrets that prove deliveries genuine. The price: after `jwtSecret` changes, the stored
 * secrets no longer open, and each webhook needs `rotateWebhookSecret` (its deliveries fail
 * meanwhile, saying so).
 */
export class WebhookSecretBox {
  private readonly key: Buffer;

  constructor(jwtSecret: string) {
    this.key = Buffer.from(
      hkdfSync('sha256', jwtSecret, Buffer.alloc(0), 'blog webhook signing secrets', 32),
    );
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([
      cipher.update(secret, 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    return `v1.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
  }

  /** The secret, or null when `sealed` does not open with this key (another `jwtSecret`). */
  open(sealed: string): string | null {
    const parts = SEALED.exec(sealed);
    if (!parts) return null;
    const iv = Buffer.from(parts[1], 'base64url');
    const data = Buffer.from(parts[2], 'base64url');
    if (data.length <= 16) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAuthTag(data.subarray(data.length - 16));
      return Buffer.concat([
        decipher.update(data.subarray(0, data.length - 16)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return null;
    }
  }
}
