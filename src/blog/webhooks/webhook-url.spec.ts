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
});
