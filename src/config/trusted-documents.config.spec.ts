import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { InvalidEnvironmentError } from './env';
import { validateEnvironment } from './index';
import { loadTrustedDocumentsConfig } from './trusted-documents.config';

const QUERY = '{ posts { id } }';
const HASH = createHash('sha256').update(QUERY).digest('hex');

describe('trusted documents settings', () => {
  let dir: string;
  const write = (name: string, content: string) => {
    const file = join(dir, name);
    writeFileSync(file, content);
    return file;
  };

  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'blog-trusted-config-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should default to no manifest, documents sent as text allowed', () => {
    expect(loadTrustedDocumentsConfig({})).toEqual({ documents: {}, only: false });
  });

  it('should load a manifest whose every hash matches its document', () => {
    const file = write('persisted-documents.json', JSON.stringify({ [HASH]: QUERY }, null, 2));
    expect(
      loadTrustedDocumentsConfig({ TRUSTED_DOCUMENTS: file, TRUSTED_DOCUMENTS_ONLY: 'true' }),
    ).toEqual({ documents: { [HASH]: QUERY }, only: true });
  });

  it.each([
    ['a hash that does not match', () => JSON.stringify({ [HASH]: `${QUERY} ` }), /does not match/],
    ['an upper-case hash', () => JSON.stringify({ [HASH.toUpperCase()]: QUERY }), /lower-case/],
    ['a key that is no hash', () => JSON.stringify({ GetPosts: QUERY }), /sha256 hex hash/],
    ['a document that is not text', () => JSON.stringify({ [HASH]: { query: QUERY } }), /string/],
    ['an array', () => JSON.stringify([QUERY]), /JSON object/],
    ['text that is not JSON', () => '{ "a": ', /cannot read/],
  ])('should refuse, naming TRUSTED_DOCUMENTS, a manifest with %s', (_case, content, reason) => {
    const file = write('manifest.json', content());
    const load = () => loadTrustedDocumentsConfig({ TRUSTED_DOCUMENTS: file });
    expect(load).toThrow(InvalidEnvironmentError);
    expect(load).toThrow(/^Invalid environment variable TRUSTED_DOCUMENTS: /);
    expect(load).toThrow(reason);
  });

  it('should be checked with every other setting at start-up', () => {
    const file = write('manifest.json', JSON.stringify({ [HASH]: 'query { other }' }));
    expect(() => validateEnvironment({ DATA_DIR: dir, TRUSTED_DOCUMENTS: file })).toThrow(
      /^Invalid environment variable TRUSTED_DOCUMENTS: /,
    );
  });

  it('should refuse a manifest it cannot read, naming TRUSTED_DOCUMENTS', () => {
    const load = () => loadTrustedDocumentsConfig({ TRUSTED_DOCUMENTS: join(dir, 'missing.json') });
    expect(load).toThrow(/^Invalid environment variable TRUSTED_DOCUMENTS: cannot read .*ENOENT/);
  });

  it('should refuse TRUSTED_DOCUMENTS_ONLY without a manifest, or when it is not a boolean', () => {
    expect(() => loadTrustedDocumentsConfig({ TRUSTED_DOCUMENTS_ONLY: 'true' })).toThrow(
      /^Invalid environment variable TRUSTED_DOCUMENTS_ONLY: needs TRUSTED_DOCUMENTS/,
    );
    expect(() => loadTrustedDocumentsConfig({ TRUSTED_DOCUMENTS_ONLY: 'sometimes' })).toThrow(
      /^Invalid environment variable TRUSTED_DOCUMENTS_ONLY: /,
    );
  });
});
