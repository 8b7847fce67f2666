import { CorpusLine } from './corpus';
import { DifferentialPair, SENDS } from './harness';
import { P5 } from './seed';

/**
 * The response budget on both executions: a compiled run that answers an error is run again on
 * graphql-js, and that run must start with the whole budget, not with what the compiled run
 * left of it. So an answer over half the budget, with a field error, answers the same on both
 * (issue 61: it answered RESPONSE_TOO_LARGE once compiled). Each document is sent SENDS times,
 * more than the compiled instance's threshold (it compiles after the first run).
 */

const MAX_RESPONSE_BYTES = 8_192;

interface Reply {
  data?: Record<string, { content?: string } | null> | null;
  errors?: { extensions?: { code?: string } }[];
}

describe('The response budget on compiled execution and graphql-js', () => {
  let pair: DifferentialPair;
  let line: CorpusLine;

  beforeAll(async () => {
    pair = await DifferentialPair.start({ GRAPHQL_MAX_RESPONSE_BYTES: String(MAX_RESPONSE_BYTES) });
    const { post } = await pair.oracle.testApp.data<{ post: { content: string } }>(
      `{ post(id: "${P5}") { content } }`,
    );
    // Past half the budget, and the answer's JSON still well within it.
    const aliases = Math.floor(MAX_RESPONSE_BYTES / 2 / post.content.length) + 1;
    const contents = Array.from(
      { length: aliases },
      (_, i) => `p${i}: post(id: "${P5}") { content }`,
    );
    line = [
      'an answer over half the budget, with a field error',
      `query Budget { ${contents.join(' ')} bad: post(id: "${P5}") { comments(first: 101) { id } } }`,
    ];
  }, 60_000);

  afterAll(() => pair?.close());

  it('should answer a large answer with a field error the same on both, every time', async () => {
    const compiledBefore = pair.compiled.execution.stats.documents;
    const run = await pair.run(line);
    expect(run.differences).toEqual([]);
    // The compiled instance compiled the document, and ran it before graphql-js did.
    expect(pair.compiled.execution.stats.documents).toBeGreaterThan(compiledBefore);
    expect(run.oracle.replies).toHaveLength(SENDS);
    for (const reply of run.oracle.replies) {
      const { data, errors } = reply.body as Reply;
      expect(errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
      const shown = Object.values(data ?? {}).map((post) => post?.content?.length ?? 0);
      expect(shown.reduce((sum, length) => sum + length, 0)).toBeGreaterThan(
        MAX_RESPONSE_BYTES / 2,
      );
    }
  });
});
