import { loadCorsConfig } from './cors.config';
import { InvalidEnvironmentError } from './env';
import { loadIdeConfig } from './ide.config';
import { validateEnvironment } from './index';

const SECRET = 's'.repeat(32);

describe('CORS configuration', () => {
  it('should allow any origin outside production and none in production by default', () => {
    expect(loadCorsConfig({})).toEqual({ origins: '*' });
    expect(loadCorsConfig({ NODE_ENV: 'test' })).toEqual({ origins: '*' });
    expect(loadCorsConfig({ NODE_ENV: 'production' })).toEqual({ origins: [] });
  });

  it('should read *, none and a comma-separated list of origins', () => {
    expect(loadCorsConfig({ NODE_ENV: 'production', CORS_ORIGINS: '*' })).toEqual({
      origins: '*',
    });
    expect(loadCorsConfig({ CORS_ORIGINS: 'none' })).toEqual({ origins: [] });
    expect(
      loadCorsConfig({ CORS_ORIGINS: 'https://app.example.com, http://127.0.0.1:5173,' }),
    ).toEqual({ origins: ['https://app.example.com', 'http://127.0.0.1:5173'] });
  });

  it.each([
    'app.example.com',
    'https://app.example.com/',
    'https://app.example.com/path',
    'ftp://files.example.com',
    'https://App.example.com',
    'https://*.example.com',
  ])('should name CORS_ORIGINS when it holds %s', (origin) => {
    const run = () =>
      validateEnvironment({
        CORS_ORIGINS: `https://ok.example.com,${origin}`,
        JWT_SECRET: SECRET,
        DATABASE_URL: 'sqlite::memory:',
      });
    expect(run).toThrow(InvalidEnvironmentError);
    expect(run).toThrow(/^Invalid environment variable CORS_ORIGINS: .*got "/);
  });
});

describe('IDE configuration', () => {
  it('should be on in development only unless GRAPHIQL says otherwise', () => {
    expect(loadIdeConfig({})).toEqual({ enabled: true });
    expect(loadIdeConfig({ NODE_ENV: 'test' })).toEqual({ enabled: false });
    expect(loadIdeConfig({ NODE_ENV: 'production' })).toEqual({ enabled: false });
    expect(loadIdeConfig({ NODE_ENV: 'production', GRAPHIQL: 'true' })).toEqual({
      enabled: true,
    });
    expect(loadIdeConfig({ GRAPHIQL: 'false' })).toEqual({ enabled: false });
  });

  it('should name GRAPHIQL when it is not a boolean', () => {
    const run = () =>
      validateEnvironment({
        GRAPHIQL: 'sometimes',
        JWT_SECRET: SECRET,
        DATABASE_URL: 'sqlite::memory:',
      });
    expect(run).toThrow(/^Invalid environment variable GRAPHIQL: /);
  });
});
