import { CREATE_POST } from './helpers/documents';
import { TestApp } from './helpers/test-app';
import { FEED_QUERY, ideTabs } from '../src/ide/ide-page';

/** What Chromium sends when it opens a URL. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('GraphiQL at GET /graphql (e2e)', () => {
  describe('when GRAPHIQL is on', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await TestApp.start({ env: { GRAPHIQL: 'true' } });
    });
    afterAll(() => t.close());

    it('should serve the IDE to a browser, with the feed query pre-filled', async () => {
      const response = await t.http.get('/graphql').set('accept', BROWSER_ACCEPT).expect(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      const config = /<script id="ide-config" type="application\/json">(.*?)<\/script>/.exec(
        response.text,
      );
      expect(JSON.parse(config![1])).toEqual({
        endpoint: '/graphql',
        defaultQuery: FEED_QUERY,
        tabs: ideTabs(),
      });
      expect(FEED_QUERY).toMatch(
        /feed \{\s+id\s+content\s+createdAt\s+author \{\s+name\s+handle\s+avatar\s+\}\s+likesCount\s+isLikedByMe/,
      );
    });

    it('should load nothing from another origin, under a policy that allows only its own', async () => {
      const response = await t.http.get('/graphql').set('accept', 'text/html').expect(200);
      const urls = [...response.text.matchAll(/\s(?:src|href)="([^"]*)"/g)].map(([, url]) => url);
      expect(urls.length).toBeGreaterThan(1);
      for (const url of urls) expect(url).toMatch(/^(\/graphql\/ide\/|data:)/);

      const policy = directives(response.headers['content-security-policy']);
      const nonce = /<meta name="csp-nonce" content="([^"]+)"/.exec(response.text)![1];
      expect(policy).toEqual({
        'default-src': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", `'nonce-${nonce}'`],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'worker-src': ["'self'"],
        'manifest-src': ["'self'"],
        'base-uri': ["'none'"],
        'form-action': ["'none'"],
        'frame-ancestors': ["'none'"],
      });
    });

    it('should give every page a nonce of its own', async () => {
      const nonces = await Promise.all(
        [1, 2].map(async () => {
          const response = await t.http.get('/graphql').set('accept', 'text/html');
          return directives(response.headers['content-security-policy'])['style-src'][1];
        }),
      );
      expect(nonces[0]).not.toBe(nonces[1]);
    });

    it('should pre-fill the query of the address instead, escaped in the page', async () => {
      const query = '{ posts { title } } # </script><script>alert(1)</script>';
      const response = await t.http
        .get('/graphql')
        .query({ query })
        .set('accept', BROWSER_ACCEPT)
        .expect(200);
      expect(response.text).not.toContain('<script>alert(1)');
      const config = /<script id="ide-config" type="application\/json">(.*?)<\/script>/.exec(
        response.text,
      );
      expect(JSON.parse(config![1])).toMatchObject({ initialQuery: query });
    });

    it('should serve its built files, compressed when asked, revalidated by ETag', async () => {
      const plain = await t.http.get('/graphql/ide/ide.js').set('accept-encoding', 'identity');
      expect(plain.status).toBe(200);
      expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(plain.headers['content-encoding']).toBeUndefined();

      const gzip = await t.http.get('/graphql/ide/ide.css').set('accept-encoding', 'gzip');
      expect(gzip.status).toBe(200);
      expect(gzip.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(gzip.headers['content-encoding']).toBe('gzip');

      const etag = plain.headers.etag;
      expect(etag).toMatch(/^"[\w-]+"$/);
      await t.http
        .get('/graphql/ide/ide.js')
        .set('accept-encoding', 'identity')
        .set('if-none-match', etag)
        .expect(304);
      await t.http.get('/graphql/ide/editor.worker.js').expect(200);
    });

    it.each([
      ['a file the build did not write', '/graphql/ide/nothing.js'],
      ['the build manifest', '/graphql/ide/manifest.json'],
      ['a path out of the folder', '/graphql/ide/..%2F..%2Fpackage.json'],
      ['a path out of the folder, plainly', '/graphql/ide/../../package.json'],
    ])('should answer 404 for %s', async (_, path) => {
      await t.http.get(path).expect(404);
    });

    it('should still execute GET operations of clients that accept JSON', async () => {
      const response = await t.http
        .get('/graphql')
        .query({ query: '{ posts { id } }' })
        .set('accept', 'application/json')
        .set('apollo-require-preflight', 'true')
        .expect(200);
      expect(response.body).toEqual({ data: { posts: [] } });
    });

    it('should still refuse a GET operation without a CSRF-safe header', async () => {
      const response = await t.http
        .get('/graphql')
        .query({ query: '{ posts { id } }' })
        .set('accept', 'application/json')
        .expect(400);
      expect(response.body.errors[0].message).toMatch(/Cross-Site Request Forgery/);
    });

    it('should still execute POST operations, a browser’s accept header or not', async () => {
      const author = await t.signUp();
      const response = await t.http
        .post('/graphql')
        .set('accept', BROWSER_ACCEPT)
        .set('authorization', author.token)
        .send({ query: CREATE_POST, variables: { input: { title: 'Still', content: 'POST' } } })
        .expect(200);
      expect(response.body.data.createPost).toMatchObject({ title: 'Still' });
    });
  });

  describe('by default in tests, and in production', () => {
    it.each([
      ['NODE_ENV=test', { GRAPHIQL: undefined }],
      ['NODE_ENV=production', { NODE_ENV: 'production', GRAPHIQL: undefined }],
      ['GRAPHIQL=false', { GRAPHIQL: 'false' }],
    ])('should serve no IDE with %s', async (_, env) => {
      const t = await TestApp.start({ env });
      try {
        const page = await t.http.get('/graphql').set('accept', BROWSER_ACCEPT);
        expect(page.headers['content-type']).not.toMatch(/text\/html/);
        expect(page.headers['content-security-policy']).toBeUndefined();
        await t.http.get('/graphql/ide/ide.js').expect(404);
      } finally {
        await t.close();
      }
    });

    it('should serve it in production when GRAPHIQL=true', async () => {
      const t = await TestApp.start({ env: { NODE_ENV: 'production', GRAPHIQL: 'true' } });
      try {
        const page = await t.http.get('/graphql').set('accept', BROWSER_ACCEPT).expect(200);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      } finally {
        await t.close();
      }
    });
  });
});
