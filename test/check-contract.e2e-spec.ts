import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ROOT } from './helpers/built-service';

interface Run {
  code: number;
  output: string;
}

/** `npm run check:contract` as npm runs it (ts-node, transpile only), with `env` and `args`. */
function checkContract(env: Record<string, string>, args: string[] = []): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', 'scripts/check-contract.ts', ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** The contract check fails when it has nothing to check, unless told that this may happen. */
describe('npm run check:contract (e2e)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'blog-contract-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const missing = () => join(dir, 'no-such-contract.graphql');

  it('should fail with one line when the contract file is missing', async () => {
    const { code, output } = await checkContract({ CONTRACT_FILE: missing() });
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toEqual([
      expect.stringMatching(/^check:contract failed: no contract file at .*no-such-contract/),
    ]);
  });

  it.each([
    ['CONTRACT_CHECK=skip', { CONTRACT_CHECK: 'skip' }, []],
    ['--if-present', {}, ['--if-present']],
  ])('should pass, saying it skipped, with %s', async (_how, env, args) => {
    const { code, output } = await checkContract({ CONTRACT_FILE: missing(), ...env }, args);
    expect({ code, output: output.trim() }).toEqual({
      code: 0,
      output: expect.stringMatching(/^check:contract skipped: no contract file at /),
    });
  });

  it('should pass on a contract the schema holds, and fail on one it breaks', async () => {
    const held = join(dir, 'held.graphql');
    writeFileSync(held, readFileSync(join(ROOT, 'schema.gql')));
    const broken = join(dir, 'broken.graphql');
    writeFileSync(
      broken,
      `${readFileSync(join(ROOT, 'schema.gql'), 'utf8')}\nextend type Query { retired: Int }\n`,
    );
    const [ok, breaking] = await Promise.all([
      checkContract({ CONTRACT_FILE: held }),
      checkContract({ CONTRACT_FILE: broken }),
    ]);
    expect(ok).toEqual({ code: 0, output: expect.stringContaining('holds the contract') });
    expect(breaking.code).toBe(1);
    expect(breaking.output).toMatch(/BREAKING: .*retired/);
  }, 240_000);
});
