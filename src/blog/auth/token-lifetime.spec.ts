import { parseTokenLifetime, tokenLifetimeOption } from './token-lifetime';

describe('parseTokenLifetime', () => {
  it.each<[string | number, number]>([
    [3600, 3600],
    ['3600', 3600],
    [' 3600 ', 3600],
    ['1.5', 1],
    ['90s', 90],
    ['15m', 900],
    ['15M', 900],
    ['12h', 43_200],
    ['1.5h', 5400],
    ['7d', 604_800],
    ['2w', 1_209_600],
    ['1y', 31_557_600],
    ['2 hours', 7200],
    ['1500ms', 1],
  ])('should read %p as %d seconds', (value, seconds) => {
    expect(parseTokenLifetime(value)).toBe(seconds);
  });

  it.each<string | number>([
    0,
    -5,
    1.5,
    Number.MAX_SAFE_INTEGER + 1,
    '',
    '   ',
    '0',
    '-5',
    '0s',
    '500ms',
    '-1d',
    'soon',
    'forever',
    '7 fortnights',
    '1e3',
    '15m30s',
    '9'.repeat(400),
    `${'1'.repeat(120)}s`,
  ])('should refuse %p', (value) => {
    expect(parseTokenLifetime(value)).toBeUndefined();
  });
});

describe('tokenLifetimeOption', () => {
  it('should default to seven days', () => {
    expect(tokenLifetimeOption()).toBe(604_800);
  });

  it('should name the option and the value it refuses', () => {
    expect(() => tokenLifetimeOption('soon')).toThrow(
      'Invalid BlogModule option jwtExpiresIn: expected a lifetime of at least 1 s, as seconds (3600) or 15m, 12h, 7d, got "soon"',
    );
  });
});
