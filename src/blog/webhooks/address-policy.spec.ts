import { addressKind, refusedAddress, refusedHostName } from './address-policy';

describe('The SSRF rule of webhook targets', () => {
  it.each([
    ['93.184.216.34', 'public'],
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.10.20', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['not an address', 'invalid'],
  ])('should class %s as %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it('should see through the IPv6 forms that carry an IPv4 address', () => {
    expect(addressKind('::ffff:127.0.0.1')).toBe('loopback');
    expect(addressKind('::ffff:7f00:1')).toBe('loopback');
    expect(addressKind('::ffff:169.254.169.254')).toBe('metadata');
    expect(addressKind('::ffff:10.0.0.1')).toBe('private');
    expect(addressKind('64:ff9b::192.168.0.1')).toBe('private');
    expect(addressKind('2002:7f00:1::')).toBe('loopback');
    expect(addressKind('::127.0.0.1')).toBe('loopback');
    expect(addressKind('::ffff:8.8.8.8')).toBe('public');
    expect(addressKind('[::1]')).toBe('loopback');
  });

  it('should not take neighbours of the ranges for them', () => {
    expect(addressKind('172.15.255.255')).toBe('public');
    expect(addressKind('172.32.0.0')).toBe('public');
    expect(addressKind('100.63.255.255')).toBe('public');
    expect(addressKind('100.128.0.0')).toBe('public');
    expect(addressKind('11.0.0.1')).toBe('public');
    expect(addressKind('fbff::1')).toBe('public');
    expect(addressKind('fec0::1')).toBe('private');
  });

  it('should refuse private addresses unless allowed, and metadata, multicast and unspecified always', () => {
    expect(refusedAddress('93.184.216.34', false)).toBeNull();
    expect(refusedAddress('10.0.0.1', false)).toBe(
      'a private address; WEBHOOK_ALLOW_PRIVATE=true allows it',
    );
    expect(refusedAddress('127.0.0.1', false)).toMatch(/^a loopback address/);
    expect(refusedAddress('10.0.0.1', true)).toBeNull();
    expect(refusedAddress('127.0.0.1', true)).toBeNull();
    expect(refusedAddress('100.64.1.1', true)).toBeNull();
    expect(refusedAddress('169.254.169.254', true)).toBe('a cloud metadata address');
    expect(refusedAddress('169.254.169.254', false)).toBe('a cloud metadata address');
    expect(refusedAddress('fd00:ec2::254', true)).toMatch(/metadata/);
    expect(refusedAddress('0.0.0.0', true)).toMatch(/unspecified/);
    expect(refusedAddress('224.0.0.1', true)).toMatch(/multicast/);
  });

  it('should refuse the names of metadata services whatever they resolve to', () => {
    expect(refusedHostName('metadata.google.internal')).toMatch(/metadata service/);
    expect(refusedHostName('METADATA.google.internal.')).toMatch(/metadata service/);
    expect(refusedHostName('hooks.example.com')).toBeNull();
  });
});
