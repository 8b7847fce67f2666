import { GraphQLError } from 'graphql';

import { webhookUrl } from './webhook-url';

const refusal = (raw: string, allowHttp = false) => {
  try {
    webhookUrl(raw, allowHttp, 'input.url');
  } catch (error) {
    return (error as GraphQLError).extensions;
  }
  return null;
};

describe('The URL of a webhook', () => {
  it('should take an absolute https URL, query included, in its normal form', () => {
    expect(webhookUrl(' https://Hooks.Example.com/in?x=1 ', false, 'input.url')).toBe(
      'https://hooks.example.com/in?x=1',
    );
  });

  it('should take http only when allowed', () => {
    expect(refusal('http://hooks.example.com/')).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.url',
    });
    expect(refusal('http://hooks.example.com/', true)).toBeNull();
  });

  it.each([
    'ftp://hooks.example.com/',
    'hooks.example.com/in',
    'https://user:pass@hooks.example.com/',
    'https://token@hooks.example.com/',
    'https://hooks.example.com/#top',
    `https://hooks.example.com/${'x'.repeat(2048)}`,
    '',
    'javascript:alert(1)',
  ])('should refuse %s', (raw) => {
    expect(refusal(raw)).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it.each([
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://[ff02::1]/',
  ])('should refuse %s, a place no receiver lives, whatever is allowed', (raw) => {
    expect(() => webhookUrl(raw, false, 'input.url', true)).toThrow(/points to/);
  });

  it.each([
    'https://127.0.0.1:8443/in',
    'https://10.1.2.3/',
    'https://[::1]/',
    'https://[::ffff:192.168.0.1]/',
  ])('should refuse the private address of %s unless private addresses are allowed', (raw) => {
    expect(refusal(raw)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.url' });
    expect(webhookUrl(raw, false, 'input.url', true)).toBe(new URL(raw).href);
  });
});
