import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CORPUS, CorpusLine, isPlainQuery } from './corpus';
import { DifferentialPair, SENDS } from './harness';

/**
 * The differential suite (issue 15): every document of the corpus goes to the service on
 * graphql-js (the oracle) and on compiled execution, each from the same seeded database, and any
 * difference in status, data, errors or the rows left behind fails its test.
 */

/** The share of plain queries answered without errors that must have run compiled. */
const MIN_COMPILED_SHARE = 0.8;

const LINES: [name: string, line: CorpusLine][] = Object.values(CORPUS).flatMap((lines) =>
  lines.map((line) => [line[0], line] as [string, CorpusLine]),
);

const SCHEMA_FILE = join(tmpdir(), `blog-differential-${process.pid}.gql`);

const SETTINGS: [string, Record<string, string>][] = [
  [
    'development, introspection on',
    { NODE_ENV: 'development', GRAPHQL_INTROSPECTION: 'true', GRAPHQL_SCHEMA_FILE: SCHEMA_FILE },
  ],
  ['production, introspection off', { NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'false' }],
];

describe.each(SETTINGS)('graphql-js and compiled execution agree (%s)', (_, env) => {
  let pair: DifferentialPair;
  const compiled = { eligible: 0, ran: 0, names: [] as string[] };

  beforeAll(async () => {
    pair = await DifferentialPair.start(env);
  }, 60_000);

  afterAll(async () => {
    await pair?.close();
    rmSync(SCHEMA_FILE, { force: true });
  });

  it('should have a corpus of at least 300 documents', () => {
    expect(LINES.length).toBeGreaterThanOrEqual(300);
    expect(new Set(LINES.map(([name]) => name)).size).toBe(LINES.length);
  });

  it.each(LINES)('%s', async (_name, line) => {
    const run = await pair.run(line);
    const answered = run.oracle.replies.every(
      (reply) => reply.status === 200 && !(reply.body as { errors?: unknown })?.errors,
    );
    if (isPlainQuery(line) && answered) {
      compiled.eligible++;
      if (run.compiledRuns > 0) compiled.ran++;
      else compiled.names.push(line[0]);
    }
    if (run.differences.length) {
      throw new Error(
        `"${line[0]}" answers differently on compiled execution (${SENDS} sends each):\n` +
          run.differences.map((difference) => `  ${difference}`).join('\n'),
      );
    }
  });

  it(`should run at least ${MIN_COMPILED_SHARE * 100}% of the plain queries compiled`, () => {
    expect(compiled.eligible).toBeGreaterThan(100);
    const share = compiled.ran / compiled.eligible;
    if (share < MIN_COMPILED_SHARE) {
      throw new Error(
        `${compiled.ran} of ${compiled.eligible} plain queries ran compiled; never compiled: ` +
          compiled.names.join('; '),
      );
    }
  });
});
