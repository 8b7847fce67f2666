import { join } from 'node:path';

import { InvalidEnvironmentError } from './env';
import { loadMailConfig } from './mail.config';

const SMTP = 'smtp://user:secret@mail.example.com:587';

describe('loadMailConfig', () => {
  it('should write mail under DATA_DIR/mail by default, with links to localhost, logged in development', () => {
    expect(loadMailConfig({ DATA_DIR: '/srv/blog', PORT: '8080' })).toEqual({
      smtpUrl: null,
      directory: join('/srv/blog', 'mail'),
      from: undefined,
      linkBaseUrl: 'http://localhost:8080',
      passwordResetPath: '/reset-password',
      emailVerificationPath: '/verify-email',
      passwordResetTtl: 1800,
      emailVerificationTtl: 86_400,
      requireVerifiedEmail: false,
      logLinks: true,
      maxAttempts: 8,
      retryBaseMs: 30_000,
    });
  });

  it('should log no link in production, in tests, or with SMTP_URL', () => {
    expect(loadMailConfig({ NODE_ENV: 'production' }).logLinks).toBe(false);
    expect(loadMailConfig({ NODE_ENV: 'test' }).logLinks).toBe(false);
    expect(loadMailConfig({ SMTP_URL: SMTP }).logLinks).toBe(false);
  });

  it('should take the links from SITE_URL and read the lifetimes as durations', () => {
    const config = loadMailConfig({
      SITE_URL: 'https://blog.example.com/',
      SMTP_URL: SMTP,
      MAIL_FROM: 'Blog <no-reply@example.com>',
      PASSWORD_RESET_TTL: '15m',
      EMAIL_VERIFICATION_TTL: '7d',
      PASSWORD_RESET_PATH: '/account/reset',
      REQUIRE_VERIFIED_EMAIL: 'true',
    });

    expect(config).toMatchObject({
      smtpUrl: SMTP,
      from: 'Blog <no-reply@example.com>',
      linkBaseUrl: 'https://blog.example.com',
      passwordResetPath: '/account/reset',
      passwordResetTtl: 900,
      emailVerificationTtl: 7 * 86_400,
      requireVerifiedEmail: true,
    });
  });

  it('should need SITE_URL and MAIL_FROM in production once SMTP_URL is set', () => {
    const production = { NODE_ENV: 'production', SMTP_URL: SMTP };
    expect(() => loadMailConfig(production)).toThrow(/SITE_URL: is required in production/);
    expect(() => loadMailConfig({ ...production, SITE_URL: 'https://blog.example.com' })).toThrow(
      /MAIL_FROM: is required in production/,
    );
    expect(
      loadMailConfig({
        ...production,
        SITE_URL: 'https://blog.example.com',
        MAIL_FROM: 'no-reply@example.com',
      }).smtpUrl,
    ).toBe(SMTP);
  });

  it.each([
    ['SMTP_URL', 'http://user:secret@mail.example.com'],
    ['MAIL_FROM', 'nobody'],
    ['PASSWORD_RESET_TTL', '500ms'],
    ['EMAIL_VERIFICATION_TTL', 'never'],
    ['PASSWORD_RESET_PATH', 'reset'],
    ['EMAIL_VERIFICATION_PATH', '/verify#here'],
    ['MAIL_MAX_ATTEMPTS', '0'],
    ['MAIL_RETRY_BASE_MS', 'soon'],
  ])('should refuse a bad %s, naming it and never the SMTP password', (name, value) => {
    let refused: unknown;
    try {
      loadMailConfig({ [name]: value });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(InvalidEnvironmentError);
    expect((refused as Error).message).toContain(name);
    expect((refused as Error).message).not.toContain('secret');
  });
});
