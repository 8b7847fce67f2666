import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadEnvFile } from './env-file';

describe('loadEnvFile', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'blog-env-file-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const file = (text: string) => {
    const path = join(dir, '.env');
    writeFileSync(path, text);
    return path;
  };

  it('should read quoted values, leave comments out, and return the names it found', () => {
    const env: NodeJS.ProcessEnv = {};
    const path = file(
      [
        '# a comment',
        'PORT=3001 # after a value',
        'JWT_SECRET="has # and spaces"',
        "CORS_ORIGINS='https://a.example, https://b.example'",
        'EMPTY=',
        'export LOG_LEVEL=debug',
        'MULTI="one\\ntwo"',
      ].join('\n'),
    );
    expect(loadEnvFile(path, env)).toEqual([
      'PORT',
      'JWT_SECRET',
      'CORS_ORIGINS',
      'EMPTY',
      'LOG_LEVEL',
      'MULTI',
    ]);
    expect(env).toEqual({
      PORT: '3001',
      JWT_SECRET: 'has # and spaces',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      EMPTY: '',
      LOG_LEVEL: 'debug',
      MULTI: 'one\ntwo',
    });
  });

  it('should let the real environment win, even with an empty value', () => {
    const env: NodeJS.ProcessEnv = { PORT: '4000', HOST: '' };
    loadEnvFile(file('PORT=3001\nHOST=0.0.0.0\nDATA_DIR=/srv\n'), env);
    expect(env).toEqual({ PORT: '4000', HOST: '', DATA_DIR: '/srv' });
  });

  it('should do nothing without a file', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(loadEnvFile(join(dir, '.env'), env)).toEqual([]);
    expect(env).toEqual({});
  });
});
