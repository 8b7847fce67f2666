import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'graphql-ws';

import { CREATE_POST } from './helpers/documents';
import { TestApp } from './helpers/test-app';
import { settle, wsClient } from './helpers/ws-client';

const SIGN_UP = `mutation ($input: SignUpInput!) { signUp(input: $input) { token user { id } } }`;
const POSTS = `query ($first: Int) { posts(first: $first) { id title } }`;
const POST_CREATED = `subscription { postCreated { id title } }`;
const FREE_TEXT = `{ posts(first: 1) { id } }`;

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
const UNKNOWN_ID = `sha256:${hashOf('query { nothing }')}`;

/** Writes a manifest as GraphQL Code Generator's client preset does, and returns its path. */
function writeManifest(dir: string, documents: string[]): string {
  const file = join(dir, 'persisted-documents.json');
  const manifest = Object.fromEntries(documents.map((text) => [hashOf(text), text]));
  writeFileSync(file, JSON.stringify(manifest, null, 2));
  return file;
}

type Payload = { query: string; documentId?: string; extensions?: Record<string, unknown> };

/** Subscribes with a payload of our own (a documentId) and collects what arrives. */
function subscribe(client: Client, payload: Payload) {
  const results: { data?: any; errors?: { extensions?: { code?: string } }[] }[] = [];
  client.subscribe(payload, {
    next: (result) => results.push(result as (typeof results)[number]),
    error: (errors) => results.push({ errors: errors as never }),
    complete: () => undefined,
  });
  return {
    results,
    async next(count: number) {
      for (let waited = 0; results.length < count && waited < 5000; waited += 50) await settle(50);
      return results.slice(0, count);
    },
  };
}

describe('Trusted documents (e2e)', () => {
  let dir: string;
  let manifest: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'blog-trusted-'));
    manifest = writeManifest(dir, [SIGN_UP, CREATE_POST, POSTS, POST_CREATED]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('with TRUSTED_DOCUMENTS_ONLY=true', () => {
    let t: TestApp;
    let urls: { http: string; ws: string };
    const clients: Client[] = [];

    const byId = (documentId: string, variables: Record<string, unknown> = {}) =>
      t.http.post('/graphql').send({ documentId, variables });

    beforeAll(async () => {
      t = await TestApp.start({
        env: { TRUSTED_DOCUMENTS: manifest, TRUSTED_DOCUMENTS_ONLY: 'true' },
      });
      urls = await t.listen();
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((client) => client.dispose()));
    });
    afterAll(() => t.close());

    it('should run a document named by POST as "sha256:<hex>" and as bare "<hex>"', async () => {
      const prefixed = await byId(`sha256:${hashOf(POSTS)}`, { first: 1 }).expect(200);
      expect(prefixed.body).toEqual({ data: { posts: [] } });
      const bare = await byId(hashOf(POSTS), { first: 1 }).expect(200);
      expect(bare.body).toEqual({ data: { posts: [] } });
    });

    it('should run a document named in extensions.documentId', async () => {
      const response = await t.http
        .post('/graphql')
        .send({ extensions: { documentId: hashOf(POSTS) } })
        .expect(200);
      expect(response.body).toEqual({ data: { posts: [] } });
    });

    it('should run a query named by GET, with its variables, in both id forms', async () => {
      for (const documentId of [`sha256:${hashOf(POSTS)}`, hashOf(POSTS)]) {
        const response = await t.http
          .get('/graphql')
          .query({ documentId, variables: JSON.stringify({ first: 2 }) })
          .set('apollo-require-preflight', 'true')
          .expect(200);
        expect(response.body).toEqual({ data: { posts: [] } });
      }
    });

    it('should still run only queries over GET', async () => {
      const response = await t.http
        .get('/graphql')
        .query({ documentId: hashOf(CREATE_POST) })
        .set('apollo-require-preflight', 'true');
      expect(response.status).toBe(405);
    });

    it('should refuse an unknown documentId with PERSISTED_QUERY_NOT_FOUND', async () => {
      for (const documentId of [UNKNOWN_ID, 'not-an-id', `md5:${hashOf(POSTS)}`]) {
        const response = await byId(documentId).expect(400);
        expect(response.body.data).toBeUndefined();
        expect(response.body.errors).toEqual([
          expect.objectContaining({ extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }),
        ]);
      }
    });

    it('should refuse a document sent as text, over POST and GET, before parsing it', async () => {
      for (const query of [FREE_TEXT, POSTS, '{ not graphql']) {
        const response = await t.gql(query);
        expect(response.errors).toEqual([
          expect.objectContaining({
            extensions: { code: 'BAD_REQUEST', reason: 'TRUSTED_DOCUMENT_REQUIRED' },
          }),
        ]);
      }
      const get = await t.http
        .get('/graphql')
        .query({ query: FREE_TEXT })
        .set('apollo-require-preflight', 'true')
        .expect(400);
      expect(get.body.errors[0].extensions.reason).toBe('TRUSTED_DOCUMENT_REQUIRED');
    });

    it('should refuse an automatic persisted query, which is not in the manifest', async () => {
      const response = await t.http
        .post('/graphql')
        .send({ extensions: { persistedQuery: { version: 1, sha256Hash: hashOf(FREE_TEXT) } } })
        .expect(400);
      expect(response.body.errors[0].extensions.reason).toBe('TRUSTED_DOCUMENT_REQUIRED');
    });

    it('should run subscriptions named by extensions.documentId or a top-level documentId', async () => {
      const signedUp = await byId(hashOf(SIGN_UP), {
        input: { name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' },
      }).expect(200);
      const token = `Bearer ${signedUp.body.data.signUp.token}`;
      const { client } = wsClient(urls.ws, token);
      clients.push(client);
      const inExtensions = subscribe(client, {
        query: '',
        extensions: { documentId: `sha256:${hashOf(POST_CREATED)}` },
      });
      const topLevel = subscribe(client, { query: '', documentId: hashOf(POST_CREATED) });
      await settle();

      const created = await t.http
        .post('/graphql')
        .set('authorization', token)
        .send({
          documentId: hashOf(CREATE_POST),
          variables: { input: { title: 'T', content: 'C' } },
        })
        .expect(200);
      expect(created.body.errors).toBeUndefined();

      const expected = { data: { postCreated: { id: expect.any(String), title: 'T' } } };
      expect(await inExtensions.next(1)).toEqual([expected]);
      expect(await topLevel.next(1)).toEqual([expected]);
    });

    it('should refuse text and unknown ids on the WebSocket', async () => {
      const { client } = wsClient(urls.ws);
      clients.push(client);
      const text = subscribe(client, { query: POST_CREATED });
      const unknown = subscribe(client, { query: '', extensions: { documentId: UNKNOWN_ID } });
      const [textResult] = await text.next(1);
      const [unknownResult] = await unknown.next(1);
      expect(textResult.errors?.[0].extensions).toEqual({
        code: 'BAD_REQUEST',
        reason: 'TRUSTED_DOCUMENT_REQUIRED',
      });
      expect(unknownResult.errors?.[0].extensions).toEqual({ code: 'PERSISTED_QUERY_NOT_FOUND' });
    });
  });

  describe('with documents sent as text allowed', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await TestApp.start({ env: { TRUSTED_DOCUMENTS: manifest } });
    });
    afterAll(() => t.close());

    it('should run documents sent as text', async () => {
      expect(await t.data(FREE_TEXT)).toEqual({ posts: [] });
    });

    it('should run a document named by its id', async () => {
      const response = await t.http
        .post('/graphql')
        .send({ documentId: `sha256:${hashOf(POSTS)}` })
        .expect(200);
      expect(response.body).toEqual({ data: { posts: [] } });
    });

    it('should still refuse an unknown documentId', async () => {
      const response = await t.http.post('/graphql').send({ documentId: UNKNOWN_ID }).expect(400);
      expect(response.body.errors[0].extensions).toEqual({ code: 'PERSISTED_QUERY_NOT_FOUND' });
    });

    it('should refuse a request that sends both a query and a documentId', async () => {
      const response = await t.http
        .post('/graphql')
        .send({ query: FREE_TEXT, documentId: hashOf(POSTS) })
        .expect(400);
      expect(response.body.errors[0].extensions).toEqual({ code: 'BAD_REQUEST' });
    });
  });

  it('should refuse to start with a manifest whose hash does not match, naming the variable', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ [hashOf(POSTS)]: FREE_TEXT }));
    await expect(TestApp.start({ env: { TRUSTED_DOCUMENTS: bad } })).rejects.toThrow(
      /^Invalid environment variable TRUSTED_DOCUMENTS: .*does not match its document/,
    );
  });
});
