import { GraphQLError } from 'graphql';

import { parseAvatarUrl } from './avatar-url';
import { UpdateProfileInput } from './dto/update-profile.input';
import { SignUpInput } from '../auth/dto/sign-up.input';
import { inputValidationPipe } from '../common/validation';

describe('parseAvatarUrl', () => {
  it.each([
    ['https://example.com/me.png', 'https://example.com/me.png'],
    ['HTTPS://Example.COM:443/a b.png', 'https://example.com/a%20b.png'],
    ['http://example.com:80/%7e', 'http://example.com/%7e'],
    ['https://cdn.example.org/a"onerror="x.png', 'https://cdn.example.org/a%22onerror=%22x.png'],
    ["https://example.com/it's<b>.png", 'https://example.com/it%27s%3Cb%3E.png'],
    ['https://例え.jp/a.png', 'https://xn--r8jz45g.jp/a.png'],
    ['https://1.1.1.1/a.png', 'https://1.1.1.1/a.png'],
    ['https://[2606:4700:4700::1111]/a.png', 'https://[2606:4700:4700::1111]/a.png'],
    ['https://example.com./a.png', 'https://example.com./a.png'],
    ['http://@example.com/a.png', 'http://example.com/a.png'],
  ])('should accept %s, stored as %s', (text, href) => {
    expect(parseAvatarUrl(text)).toEqual({ href });
  });

  it.each([
    ['another scheme', 'ftp://example.com/a.png', /http\(s\) URL/],
    ['a script', 'javascript:alert(1)', /http\(s\) URL/],
    ['data', 'data:image/png;base64,AAAA', /http\(s\) URL/],
    ['no scheme', 'example.com/a.png', /http\(s\) URL/],
    ['a user and password', 'https://user:pass@example.com/a.png', /user name or password/],
    ['a user alone', 'https://user@example.com/a.png', /user name or password/],
    ['a password alone', 'https://:pass@example.com/a.png', /user name or password/],
    ['localhost', 'http://localhost/a.png', /public host/],
    ['localhost with a dot', 'http://localhost./a.png', /public host/],
    ['a name under localhost', 'http://api.localhost/a.png', /public host/],
    ['a name of one label', 'http://intranet/a.png', /public host/],
    ['a .local name', 'http://printer.local/a.png', /public host/],
    ['an .internal name', 'http://metadata.google.internal/a.png', /public host/],
    ['a home.arpa name', 'http://nas.home.arpa/a.png', /public host/],
    ['loopback', 'http://127.0.0.1/a.png', /public host/],
    ['loopback as a number', 'http://2130706433/a.png', /public host/],
    ['loopback in hex', 'http://0x7f.1/a.png', /public host/],
    ['this network', 'http://0.0.0.0/a.png', /public host/],
    ['a private address', 'http://10.0.0.5/a.png', /public host/],
    ['a 172.16/12 address', 'http://172.20.1.1/a.png', /public host/],
    ['a 192.168/16 address', 'http://192.168.1.1/a.png', /public host/],
    ['a shared address', 'http://100.64.0.1/a.png', /public host/],
    ['the metadata address', 'http://169.254.169.254/latest', /public host/],
    ['a multicast address', 'http://224.0.0.1/a.png', /public host/],
    ['the broadcast address', 'http://255.255.255.255/a.png', /public host/],
    ['IPv6 loopback', 'http://[::1]/a.png', /public host/],
    ['IPv6 unspecified', 'http://[::]/a.png', /public host/],
    ['IPv6 link-local', 'http://[fe80::1]/a.png', /public host/],
    ['IPv6 unique-local', 'http://[fd12:3456::1]/a.png', /public host/],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/a.png', /public host/],
    ['IPv6 documentation', 'http://[2001:db8::1]/a.png', /public host/],
    ['6to4 of a private address', 'http://[2002:0a00:0001::1]/a.png', /public host/],
    ['a tab the parser would drop', 'http://exa\tmple.com/a.png', /control characters/],
    ['a line feed', 'https://example.com/a\n.png', /control characters/],
    ['a NUL', 'https://example.com/a\u0000.png', /control characters/],
    ['a label with an underscore', 'http://a_b.example.com/a.png', /public host/],
    ['an empty label', 'http://a..example.com/a.png', /public host/],
    ['too long', `https://example.com/${'a'.repeat(2048)}`, /at most 2048/],
    [
      'too long once quotes are escaped',
      `https://example.com/${'"'.repeat(1000)}`,
      /at most 2048 characters once normalised/,
    ],
  ])('should refuse %s', (_, text, problem) => {
    const parsed = parseAvatarUrl(text);
    expect(parsed).toEqual({ problem: expect.stringMatching(problem) });
  });
});

describe('avatar inputs', () => {
  const validate = async (
    metatype: typeof SignUpInput | typeof UpdateProfileInput,
    value: object,
  ) => {
    try {
      return await inputValidationPipe.transform(value, { type: 'body', metatype, data: 'input' });
    } catch (error) {
      return error as GraphQLError;
    }
  };
  const signUp = {
    name: 'Ann',
    email: 'ann@example.com',
    password: 'long enough',
  };

  it('should store the normalised URL at sign-up and on a profile change', async () => {
    const signedUp = await validate(SignUpInput, {
      ...signUp,
      avatar: '  HTTPS://Example.com/a b.png ',
    });
    expect(signedUp).toMatchObject({ avatar: 'https://example.com/a%20b.png' });
    const changed = await validate(UpdateProfileInput, { avatar: 'https://EXAMPLE.com/x"y' });
    expect(changed).toMatchObject({ avatar: 'https://example.com/x%22y' });
  });

  it('should read an empty avatar as none on a profile change', async () => {
    expect(await validate(UpdateProfileInput, { avatar: '   ' })).toMatchObject({ avatar: null });
  });

  it.each([
    ['https://user:pass@example.com/a.png', /user name or password/],
    ['http://169.254.169.254/a.png', /public host/],
    ['javascript:alert(1)', /http\(s\) URL/],
  ])('should refuse %s as BAD_USER_INPUT on input.avatar, saying why', async (avatar, why) => {
    for (const [metatype, value] of [
      [SignUpInput, { ...signUp, avatar }],
      [UpdateProfileInput, { avatar }],
    ] as const) {
      const error = (await validate(metatype, value)) as GraphQLError;
      expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'input.avatar' });
      expect(error.message).toMatch(why);
    }
  });
});
