import { TestApp } from './helpers/test-app';

const APP = 'https://app.example.com';
const OTHER = 'https://evil.example.net';
const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'apollo-require-preflight',
  'x-request-id',
];

/** The preflight a browser sends before a cross-origin POST of JSON with a token. */
function preflight(t: TestApp, origin: string) {
  return t.http
    .options('/graphql')
    .set('origin', origin)
    .set('access-control-request-method', 'POST')
    .set('access-control-request-headers', ALLOWED_HEADERS.join(','));
}

function crossOriginPost(t: TestApp, origin: string, authorization?: string) {
  const request = t.http
    .post('/graphql')
    .set('origin', origin)
    .set('content-type', 'application/json')
    .set('x-request-id', 'cors-e2e-1');
  if (authorization) request.set('authorization', authorization);
  return request.send({ query: '{ me { handle } }' });
}

function corsHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => name.startsWith('access-control-')),
  );
}

describe('CORS (e2e)', () => {
  describe('by default outside production: any origin', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await TestApp.start({ env: { CORS_ORIGINS: undefined } });
    });
    afterAll(() => t.close());

    it('should answer a preflight with the methods and headers a client needs', async () => {
      const response = await preflight(t, OTHER).expect(204);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-methods']).toBe('GET, POST');
      expect(response.headers['access-control-allow-headers'].split(', ')).toEqual(ALLOWED_HEADERS);
      expect(response.headers['access-control-max-age']).toBe('600');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('should let a cross-origin POST with a token read its result and request id', async () => {
      const user = await t.signUp();
      const response = await crossOriginPost(t, OTHER, user.token).expect(200);
      expect(response.body).toEqual({ data: { me: { handle: user.user.handle } } });
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-expose-headers']).toBe('x-request-id');
      expect(response.headers['x-request-id']).toBe('cors-e2e-1');
    });

    it('should keep Apollo’s CSRF prevention: a simple cross-origin request is refused', async () => {
      const get = await t.http
        .get('/graphql')
        .query({ query: '{ me { id } }' })
        .set('origin', OTHER)
        .expect(400);
      expect(get.body.errors[0].message).toMatch(/Cross-Site Request Forgery/);

      const form = await t.http
        .post('/graphql')
        .set('origin', OTHER)
        .set('content-type', 'text/plain')
        .send(JSON.stringify({ query: '{ __typename }' }));
      expect(form.status).toBe(400);
      expect(form.body.errors[0].message).toMatch(/Cross-Site Request Forgery/);
    });
  });

  describe('with CORS_ORIGINS naming origins', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await TestApp.start({
        env: { NODE_ENV: 'production', CORS_ORIGINS: `${APP},http://127.0.0.1:5173` },
      });
    });
    afterAll(() => t.close());

    it('should allow exactly those origins, echoed back and varied on', async () => {
      const response = await preflight(t, APP).expect(204);
      expect(response.headers['access-control-allow-origin']).toBe(APP);
      expect(response.headers.vary).toMatch(/origin/i);

      const post = await crossOriginPost(t, APP).expect(200);
      expect(post.headers['access-control-allow-origin']).toBe(APP);
      expect(post.headers['access-control-expose-headers']).toBe('x-request-id');
    });

    it('should give any other origin no access-control-allow-origin', async () => {
      const response = await preflight(t, OTHER);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      const post = await crossOriginPost(t, OTHER).expect(200);
      expect(post.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('by default in production: no origin', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await TestApp.start({ env: { NODE_ENV: 'production', CORS_ORIGINS: undefined } });
    });
    afterAll(() => t.close());

    it('should send no CORS header on a preflight or a cross-origin POST', async () => {
      const response = await preflight(t, APP);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(corsHeaders(response.headers)).toEqual({});

      const post = await crossOriginPost(t, APP).expect(200);
      expect(post.body).toEqual({ data: { me: null } });
      expect(corsHeaders(post.headers)).toEqual({});
    });
  });
});
