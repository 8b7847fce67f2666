import { InvalidEnvironmentError } from './env';
import { isHostSyntax, isLoopbackHost, resolveHost } from './host';

describe('HOST', () => {
  it.each(['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'api-1.internal', 'EXAMPLE.com'])(
    'should take %s as an address or a host name',
    (host) => expect(isHostSyntax(host)).toBe(true),
  );

  it.each(['http://localhost', 'localhost:3000', 'my_host', '-a.example', 'a..b', 'a b', ''])(
    'should refuse %s',
    (host) => expect(isHostSyntax(host)).toBe(false),
  );

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['localhost', true],
    ['app.localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.0.2.2', false],
    ['example.com', false],
  ])('should know whether %s keeps the service to this machine (%s)', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it('should refuse a name that does not resolve, naming HOST', async () => {
    const resolving = resolveHost('no-such-host.invalid');
    await expect(resolving).rejects.toThrow(InvalidEnvironmentError);
    await expect(resolving).rejects.toThrow(
      /^Invalid environment variable HOST: "no-such-host.invalid" does not resolve/,
    );
  });

  it('should accept an address and a name that resolves', async () => {
    await expect(resolveHost('0.0.0.0')).resolves.toBeUndefined();
    await expect(resolveHost('localhost')).resolves.toBeUndefined();
  });
});
