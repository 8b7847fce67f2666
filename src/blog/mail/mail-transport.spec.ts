import { isPermanentFailure, smtpOptions } from './mail-transport';

describe('smtpOptions', () => {
  it('should require STARTTLS on smtp://, with timeouts, the user and the password', () => {
    expect(smtpOptions('smtp://user:p%40ss@mail.example.com:587')).toEqual({
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      requireTLS: true,
      secure: false,
      host: 'mail.example.com',
      port: 587,
      auth: { user: 'user', pass: 'p@ss' },
    });
  });

  it('should speak TLS from the start on smtps://, without STARTTLS', () => {
    const options = smtpOptions('smtps://mail.example.com');
    expect(options).toMatchObject({ secure: true, host: 'mail.example.com' });
    expect(options).not.toHaveProperty('requireTLS');
  });

  it('should take STARTTLS from a server on this machine when offered, without requiring it', () => {
    for (const host of ['localhost', '127.0.0.1', '127.0.0.53', '[::1]', 'mail.localhost']) {
      const options = smtpOptions(`smtp://${host}:2525`);
      expect(options).toMatchObject({ tls: { rejectUnauthorized: false } });
      expect(options).not.toHaveProperty('requireTLS');
    }
    expect(
      smtpOptions('smtp://127.0.0.1:2525?requireTLS=true&tls.rejectUnauthorized=true'),
    ).toMatchObject({ requireTLS: true, tls: { rejectUnauthorized: true } });
    for (const host of ['10.0.0.5', 'mail.example.com', '[2001:db8::1]', '128.0.0.1']) {
      expect(smtpOptions(`smtp://${host}:587`)).toMatchObject({ requireTLS: true });
    }
  });

  it('should let the URL turn STARTTLS off and set other options', () => {
    expect(
      smtpOptions('smtp://mail.example.com:2525?requireTLS=false&tls.rejectUnauthorized=false'),
    ).toMatchObject({ requireTLS: false, tls: { rejectUnauthorized: false }, port: 2525 });
  });
});

describe('isPermanentFailure', () => {
  it('should give up on a recipient refused with 5xx, and retry everything else', () => {
    expect(isPermanentFailure({ code: 'EENVELOPE', responseCode: 550 })).toBe(true);
    expect(isPermanentFailure({ code: 'EENVELOPE', responseCode: 451 })).toBe(false);
    expect(isPermanentFailure({ code: 'EMESSAGE', responseCode: 554 })).toBe(false);
    expect(isPermanentFailure({ code: 'ECONNECTION' })).toBe(false);
    expect(isPermanentFailure(new Error('timeout'))).toBe(false);
    expect(isPermanentFailure(undefined)).toBe(false);
  });
});
