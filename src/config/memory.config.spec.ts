import { InvalidEnvironmentError } from './env';
import { validateEnvironment } from './index';
import { DEFAULT_HEAP_GROWING_PERCENT, loadMemoryConfig, v8FlagsFor } from './memory.config';

describe('memory configuration', () => {
  it('should let the old generation grow by 50 % unless told otherwise', () => {
    expect(DEFAULT_HEAP_GROWING_PERCENT).toBe(50);
    expect(loadMemoryConfig({})).toEqual({ heapGrowingPercent: 50 });
    expect(loadMemoryConfig({ HEAP_GROWING_PERCENT: '25' })).toEqual({ heapGrowingPercent: 25 });
    expect(loadMemoryConfig({ HEAP_GROWING_PERCENT: '0' })).toEqual({ heapGrowingPercent: 0 });
  });

  it('should turn the setting into a V8 flag, none for 0', () => {
    expect(v8FlagsFor({ heapGrowingPercent: 50 })).toEqual(['--heap-growing-percent=50']);
    expect(v8FlagsFor({ heapGrowingPercent: 0 })).toEqual([]);
  });

  it.each(['--heap-growing-percent=80', '--heap_growing_percent=80', '--heap-growing-percent'])(
    'should leave the factor to the command line when node was started with %s',
    (arg) => {
      expect(v8FlagsFor({ heapGrowingPercent: 50 }, ['--enable-source-maps', arg])).toEqual([]);
    },
  );

  it.each(['-1', 'half', '1001'])('should name HEAP_GROWING_PERCENT when it is %s', (value) => {
    const run = () =>
      validateEnvironment({
        HEAP_GROWING_PERCENT: value,
        JWT_SECRET: 's'.repeat(32),
        DATABASE_URL: 'sqlite::memory:',
      });
    expect(run).toThrow(InvalidEnvironmentError);
    expect(run).toThrow(/^Invalid environment variable HEAP_GROWING_PERCENT: /);
  });
});
