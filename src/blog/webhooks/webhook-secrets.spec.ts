import { Webhook } from 'standardwebhooks';

import { newWebhookSecret, WebhookSecretBox } from './webhook-secrets';

describe('Webhook secrets', () => {
  it('should be whsec_ and the base64 of 32 random bytes, which standardwebhooks reads', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
    const signed = new Webhook(secret).sign('msg_1', new Date(), '{}');
    expect(signed).toMatch(/^v1,/);
  });

  it('should seal a secret so that only the same key opens it', () => {
    const box = new WebhookSecretBox('a-jwt-secret-that-is-long-enough-for-hs256');
    const secret = newWebhookSecret();
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(box.seal(secret)).not.toBe(sealed);
    expect(box.open(sealed)).toBe(secret);
    expect(
      new WebhookSecretBox('another-jwt-secret-that-is-long-enough!!').open(sealed),
    ).toBeNull();
    expect(box.open(`${sealed.slice(0, -2)}AA`)).toBeNull();
    expect(box.open('garbage')).toBeNull();
  });
});
