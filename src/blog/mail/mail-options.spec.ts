import { checkLinkPath, checkMailFrom, checkSmtpUrl, mailSettings } from './mail-options';

describe('mailSettings', () => {
  it('should send no mail, and need no link base, when neither smtpUrl nor directory is set', () => {
    expect(mailSettings(undefined, null)).toMatchObject({
      transport: null,
      linkBaseUrl: '',
      requireVerifiedEmail: false,
    });
  });

  it('should take its defaults, the links on site.url and the From on its host', () => {
    expect(mailSettings({ directory: '/tmp/mail' }, 'https://blog.example.com/')).toEqual({
      transport: { directory: '/tmp/mail' },
      from: 'no-reply@blog.example.com',
      linkBaseUrl: 'https://blog.example.com',
      passwordResetPath: '/reset-password',
      emailVerificationPath: '/verify-email',
      passwordResetTtlMs: 30 * 60_000,
      emailVerificationTtlMs: 24 * 3_600_000,
      requireVerifiedEmail: false,
      logLinks: false,
      maxAttempts: 8,
      retryBaseMs: 30_000,
    });
  });

  it('should prefer linkBaseUrl to site.url, and read lifetimes as JWT_EXPIRES_IN is read', () => {
    const settings = mailSettings(
      {
        smtpUrl: 'smtps://mail.example.com',
        linkBaseUrl: 'https://app.example.com/base',
        passwordResetTtl: 900,
        emailVerificationTtl: '2 days',
      },
      'https://blog.example.com',
    );

    expect(settings).toMatchObject({
      transport: { smtpUrl: 'smtps://mail.example.com' },
      linkBaseUrl: 'https://app.example.com/base',
      from: 'no-reply@app.example.com',
      passwordResetTtlMs: 900_000,
      emailVerificationTtlMs: 2 * 86_400_000,
    });
  });

  it.each([
    [{ directory: '/tmp/mail' }, null, /site\.url or mail\.linkBaseUrl/],
    [{ requireVerifiedEmail: true }, 'https://b.example', /requireVerifiedEmail needs/],
    [{ smtpUrl: 'http://mail.example.com' }, 'https://b.example', /mail\.smtpUrl: must start/],
    [{ directory: '/d', passwordResetTtl: '0' }, 'https://b.example', /mail\.passwordResetTtl/],
    [{ directory: '/d', emailVerificationPath: 'verify' }, 'https://b.example', /mail\.emailVerif/],
    [{ directory: '/d', from: 'not an address' }, 'https://b.example', /mail\.from/],
    [{ directory: '/d', maxAttempts: 0 }, 'https://b.example', /mail\.maxAttempts/],
  ])('should refuse %j on %j, naming the option', (options, site, message) => {
    expect(() => mailSettings(options, site)).toThrow(message);
  });
});

describe('the rules of the mail options', () => {
  it('should take smtp:// and smtps:// URLs with a host, and never repeat a refused one', () => {
    expect(checkSmtpUrl('smtp://user:secret@mail.example.com:587')).toBe(
      'smtp://user:secret@mail.example.com:587',
    );
    expect(checkSmtpUrl('smtps://mail.example.com')).toBe('smtps://mail.example.com');
    for (const url of ['https://user:secret@mail.example.com', 'smtp:secret', 'secret']) {
      const refused = checkSmtpUrl(url);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).not.toContain('secret');
    }
  });

  it('should take an address or a named address as the From', () => {
    expect(checkMailFrom(' Blog <no-reply@example.com> ')).toBe('Blog <no-reply@example.com>');
    expect(checkMailFrom('no-reply@example.com')).toBe('no-reply@example.com');
    expect(checkMailFrom('Blog')).toBeInstanceOf(Error);
    expect(checkMailFrom('a@b.example\r\nBcc: x@y.example')).toBeInstanceOf(Error);
  });

  it('should take a path of the front-end, with or without a query of its own', () => {
    expect(checkLinkPath('/reset-password')).toBe('/reset-password');
    expect(checkLinkPath('/account?view=reset')).toBe('/account?view=reset');
    for (const path of ['reset', '//evil.example/reset', '/reset#top', '/a b']) {
      expect(checkLinkPath(path)).toBeInstanceOf(Error);
    }
  });
});
