import { NestFastifyApplication } from '@nestjs/platform-fastify';

import type { CorpusLine, Who } from './corpus';
import { Normaliser, Observation, Reply, differences } from './normalise';
import {
  ADA,
  BOB,
  CYD,
  DEE,
  Dump,
  dumpTables,
  EVE,
  FAY,
  resetToSeed,
  seedPasswordHash,
} from './seed';
import { AuthService, CompiledExecution, User } from '../../src/blog';
import { CREATE_POST } from '../helpers/documents';
import { TestApp, TestUser } from '../helpers/test-app';

/** The settings both instances share: no write or auth limits in the way of the corpus. */
const SHARED_ENV = {
  RATE_LIMIT_WRITES_PER_MINUTE: '0',
  AUTH_RATE_LIMIT: '100000',
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'json',
  // The seed's delivery log is older than the default 30 days, which the worker would prune.
  WEBHOOK_LOG_DAYS: '3650',
};

/** graphql-js, the oracle. */
export const ORACLE_ENV = { GRAPHQL_JIT: 'false' };

/** Compiled execution, every eligible query compiled after its first run, with no budget cap. */
export const COMPILED_ENV = {
  GRAPHQL_JIT: 'true',
  GRAPHQL_JIT_COMPILE_AFTER: '0',
  GRAPHQL_JIT_COMPILES_PER_MINUTE: '100000',
  GRAPHQL_JIT_MAX_DOCUMENTS: '10000',
};

/** Both executions, for a faster path's suite: `describe.each(EXECUTIONS)`. */
export const EXECUTIONS: [name: string, env: Record<string, string>][] = [
  ['graphql-js', ORACLE_ENV],
  ['compiled execution', COMPILED_ENV],
];

/** How many times each document is sent: once, then again after compiling has finished. */
export const SENDS = 3;

/** Unexpected errors an app logs, read from its log lines. */
class UnexpectedErrors {
  private lines: string[] = [];

  write(line: string): void {
    if (!line.includes('Unexpected error')) return;
    const { msg } = JSON.parse(line) as { msg?: string };
    if (msg?.startsWith('Unexpected error')) this.lines.push(msg);
  }

  take(): string[] {
    return this.lines.splice(0);
  }
}

/** One running service of a differential pair, on a database of its own. */
export class Instance {
  private dirty = true;

  private constructor(
    readonly testApp: TestApp,
    private readonly unexpected: UnexpectedErrors,
    /** The /graphql address the instance listens on, on 127.0.0.1. */
    private readonly url: string,
  ) {}

  static async start(env: Record<string, string>): Promise<Instance> {
    const unexpected = new UnexpectedErrors();
    const testApp = await TestApp.start({
      env: { ...SHARED_ENV, ...env },
      logs: unexpected,
    });
    try {
      const { http } = await testApp.listen();
      return new Instance(testApp, unexpected, http);
    } catch (error) {
      await testApp.close();
      throw error;
    }
  }

  get app(): NestFastifyApplication {
    return this.testApp.app;
  }

  get execution(): CompiledExecution {
    return this.app.get(CompiledExecution);
  }

  /** Puts the seed back unless the last document left it as it was. */
  async reset(): Promise<void> {
    if (!this.dirty) return;
    await resetToSeed(this.testApp.dataSource);
    this.dirty = false;
  }

  /** The tables once the work left after the answers (a publication's fan-out) is done. */
  async dump(seed: string): Promise<Dump> {
    await this.testApp.fannedOut();
    const dump = await dumpTables(this.testApp.dataSource);
    this.dirty = JSON.stringify(dump) !== seed;
    return dump;
  }

  /** Sends one corpus document as its line says: POST with a JSON body, or GET, over a socket. */
  async send(line: CorpusLine, tokens: Record<Who, string | undefined>): Promise<Reply> {
    const [, query, variables, who = 'anonymous', options = {}] = line;
    const headers: Record<string, string> = {};
    const authorization = tokens[who];
    if (authorization) headers.authorization = authorization;
    const operationName = options.operationName;
    const body =
      options.body ??
      Object.fromEntries(
        Object.entries({ query, variables: variables ?? undefined, operationName }).filter(
          ([, value]) => value !== undefined,
        ),
      );
    let response: Response;
    if (options.get) {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
        search.set(key, typeof value === 'string' ? value : JSON.stringify(value));
      }
      headers['apollo-require-preflight'] = 'true';
      response = await fetch(`${this.url}?${search}`, { headers });
    } else {
      headers['content-type'] = 'application/json';
      response = await fetch(this.url, {
        method: 'POST',
        headers,
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: compared as text.
    }
    const contentType = response.headers.get('content-type') ?? undefined;
    return { status: response.status, contentType, body: parsed };
  }

  takeUnexpected(): string[] {
    return this.unexpected.take();
  }

  close(): Promise<void> {
    return this.testApp.close();
  }
}

/** The result of one document on both instances. */
export interface DocumentRun {
  differences: string[];
  /** Runs the compiled instance answered with compiled code, over the sends after the first. */
  compiledRuns: number;
  oracle: Observation;
  compiled: Observation;
}

/**
 * The oracle (graphql-js) and the compiled instance, on databases reset to the same seed before
 * every document that wrote, with the same users signed in on both.
 */
export class DifferentialPair {
  private readonly since = new Date();
  private tokens!: Record<Who, string | undefined>;
  private seedDump!: string;
  private seedIds!: Set<string>;
  private seedHashes!: Set<string>;

  private constructor(
    readonly oracle: Instance,
    readonly compiled: Instance,
  ) {}

  /**
   * Starts both instances with `env`; `compiledEnv` is for the compiled instance only (the tests
   * that prove a difference is caught give it settings that change answers).
   */
  static async start(
    env: Record<string, string> = {},
    compiledEnv: Record<string, string> = {},
  ): Promise<DifferentialPair> {
    const oracle = await Instance.start({ ...env, ...ORACLE_ENV });
    const compiled = await Instance.start({ ...env, ...COMPILED_ENV, ...compiledEnv }).catch(
      async (error) => {
        await oracle.close();
        throw error;
      },
    );
    const pair = new DifferentialPair(oracle, compiled);
    await pair.prepare();
    return pair;
  }

  private async prepare(): Promise<void> {
    await Promise.all([this.oracle.reset(), this.compiled.reset()]);
    const dump = await dumpTables(this.oracle.testApp.dataSource);
    this.seedDump = JSON.stringify(dump);
    this.seedIds = new Set(
      Object.values(dump)
        .flat()
        .flatMap((row) => Object.values(row))
        .filter((value): value is string => typeof value === 'string' && value.length === 36),
    );
    this.seedHashes = new Set([await seedPasswordHash()]);
    const auth = this.oracle.app.get(AuthService);
    const token = async (id: string) =>
      `Bearer ${(await auth.issueToken({ id, tokenVersion: 0 } as User)).token}`;
    this.tokens = {
      anonymous: undefined,
      admin: await token(ADA),
      user: await token(BOB),
      other: await token(CYD),
      quiet: await token(DEE),
      editor: await token(EVE),
      contributor: await token(FAY),
      forged: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
      bare: (await token(BOB)).slice('Bearer '.length),
    };
  }

  /**
   * Sends a document to both instances, oracle first, then waits for the compiled instance to
   * finish compiling, then sends it {@link SENDS} - 1 more times to both; then reads both
   * databases and compares everything, normalised.
   */
  async run(line: CorpusLine): Promise<DocumentRun> {
    await Promise.all([this.oracle.reset(), this.compiled.reset()]);
    this.oracle.takeUnexpected();
    this.compiled.takeUnexpected();
    const replies: { oracle: Reply[]; compiled: Reply[] } = { oracle: [], compiled: [] };
    let compiledBefore = 0;
    for (let send = 1; send <= SENDS; send++) {
      replies.oracle.push(await this.oracle.send(line, this.tokens));
      replies.compiled.push(await this.compiled.send(line, this.tokens));
      if (send === 1) {
        await this.compiled.execution.idle();
        compiledBefore = this.compiled.execution.stats.compiled;
      }
    }
    const compiledRuns = this.compiled.execution.stats.compiled - compiledBefore;
    const oracle = this.normalise({
      replies: replies.oracle,
      tables: await this.oracle.dump(this.seedDump),
      unexpected: this.oracle.takeUnexpected(),
    });
    const compiled = this.normalise({
      replies: replies.compiled,
      tables: await this.compiled.dump(this.seedDump),
      unexpected: this.compiled.takeUnexpected(),
    });
    return { differences: differences(oracle, compiled), compiledRuns, oracle, compiled };
  }

  private normalise(observation: Observation): Observation {
    return new Normaliser(this.seedIds, this.seedHashes, this.since).observation(observation);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.oracle.close(), this.compiled.close()]);
  }
}

/**
 * Runs `action` on the plain path when `plain`, with `takeAway()` (a spy that takes the faster
 * path away) in force, and on the faster path otherwise; the spy is restored whatever happens.
 * `spied` is how many times the spy was called (none on the faster path).
 */
export async function onPath<T extends object>(
  plain: boolean,
  takeAway: () => jest.SpyInstance,
  action: () => Promise<T>,
): Promise<T & { spied?: number }> {
  const spy = plain ? takeAway() : null;
  try {
    return { ...(await action()), spied: spy?.mock.calls.length };
  } finally {
    spy?.mockRestore();
  }
}

/**
 * Sends each document of `corpus` (its name first) to the plain path and then to the faster one
 * that replaces it, `rounds` times, and describes every reply of the faster path that differs:
 * none when it is exact.
 */
export async function fastPathDifferences<L extends readonly [string, ...unknown[]]>(
  corpus: readonly L[],
  send: (line: L, plain: boolean) => Promise<{ reply: unknown }>,
  rounds = 2,
): Promise<string[]> {
  const found: string[] = [];
  for (const line of corpus) {
    for (let round = 0; round < rounds; round++) {
      const plain = JSON.stringify((await send(line, true)).reply);
      const fast = JSON.stringify((await send(line, false)).reply);
      if (fast !== plain)
        found.push(`${line[0]} (round ${round + 1}):\n  plain ${plain}\n  fast  ${fast}`);
    }
  }
  return found;
}

/**
 * Three new users, a writer, a reader and a third, and six published posts, `input(n)` for the
 * n-th, written by them in turn: the writer's are the first, fourth and sixth (`ids`).
 */
export async function sixPostsByThree(
  t: TestApp,
  input: (n: number) => Record<string, unknown>,
): Promise<{ writer: TestUser; reader: TestUser; third: TestUser; ids: string[] }> {
  const [writer, reader, third] = [await t.signUp(), await t.signUp(), await t.signUp()];
  const ids: string[] = [];
  for (const [n, author] of [writer, reader, third, writer, reader, writer].entries()) {
    const { createPost } = await t.data<{ createPost: { id: string } }>(
      CREATE_POST,
      { input: input(n) },
      author.token,
    );
    ids.push(createPost.id);
  }
  return { writer, reader, third, ids };
}
