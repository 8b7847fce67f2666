import { InvalidEnvironmentError } from './env';
import { validateEnvironment } from './index';
import { loadShutdownConfig } from './shutdown.config';

describe('shutdown configuration', () => {
  it('should wait 10 seconds for requests in flight unless told otherwise', () => {
    expect(loadShutdownConfig({})).toEqual({ timeoutMs: 10_000 });
    expect(loadShutdownConfig({ SHUTDOWN_TIMEOUT_MS: '2500' })).toEqual({ timeoutMs: 2500 });
  });

  it.each(['-1', 'soon', '999', '600001'])(
    'should name SHUTDOWN_TIMEOUT_MS when it is %s',
    (value) => {
      const run = () =>
        validateEnvironment({
          SHUTDOWN_TIMEOUT_MS: value,
          JWT_SECRET: 's'.repeat(32),
          DATABASE_URL: 'sqlite::memory:',
        });
      expect(run).toThrow(InvalidEnvironmentError);
      expect(run).toThrow(/^Invalid environment variable SHUTDOWN_TIMEOUT_MS: /);
    },
  );
});
