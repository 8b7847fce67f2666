import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { fileSize, freePort, track } from './processes.mjs';

/** The headers of an operation's requests: JSON, the signed-in user's token, the op name. */
export function headersFor(op, tokens) {
  return {
    'content-type': 'application/json',
    'x-bench-op': op.id,
    ...(op.as ? { authorization: `Bearer ${tokens[op.as]}` } : {}),
  };
}

/** Sends each request of `op` once; returns [{ status, body }] in order. */
export async function sendOnce(url, op, tokens) {
  const answers = [];
  for (const body of op.bodies) {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: headersFor(op, tokens),
      body,
      signal: AbortSignal.timeout(30_000),
    });
    answers.push({ status: response.status, body: await response.text() });
  }
  return answers;
}

/** Why an answer is not a good GraphQL response, or null when it is. */
export function problemOf(answer) {
  if (answer.status !== 200) return `HTTP ${answer.status}: ${answer.body.slice(0, 300)}`;
  if (!answer.body.startsWith('{"data":')) return `not data: ${answer.body.slice(0, 300)}`;
  if (answer.body.includes('"errors":[')) return `GraphQL errors: ${answer.body.slice(0, 300)}`;
  return null;
}

/**
 * The values of a JSON response in document order, without the keys and with timestamps
 * normalised, so that two servers with different field names (PostGraphile) can be compared
 * on the data they return.
 */
export function leaves(body) {
  const out = [];
  const walk = (value) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
    else if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value)) {
      out.push(new Date(value).toISOString());
    } else out.push(value);
  };
  walk(JSON.parse(body));
  return out;
}

/**
 * Runs the load rounds of one operation in a separate process (bench/load-worker.mjs) and
 * returns its figures per round; with the server's `pid`, each round's server CPU time per answer.
 */
export async function runLoad({ ctx, url, op, tokens, check, rounds, pid = null }) {
  const planFile = join(ctx.tmp, `plan-${op.id}.json`);
  writeFileSync(
    planFile,
    JSON.stringify({
      url: `${url}/graphql`,
      headers: headersFor(op, tokens),
      bodies: op.bodies,
      check,
      rounds,
      pid,
    }),
  );
  const budgetMs = rounds.reduce((sum, round) => sum + round.duration * 1000 + 15_000, 30_000);
  const stdout = await new Promise((resolve, reject) => {
    const worker = execFile(
      process.execPath,
      [join(ctx.root, 'bench/load-worker.mjs'), planFile],
      { cwd: ctx.root, timeout: budgetMs, maxBuffer: 16 * 1024 * 1024 },
      (error, out, err) =>
        error ? reject(new Error(`load worker failed: ${error.message}\n${err}`)) : resolve(out),
    );
    track(worker);
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)).rounds;
}

/**
 * The cold start: starts the contender `runs` times, one after the other, each time measuring
 * the time from the spawn to the first answer to its fixed tiny query (`coldStartQuery`), and
 * stops it. Returns every run and their median, in ms.
 */
export async function measureColdStart({ contender, runs }) {
  const times = [];
  for (let run = 0; run < runs; run++) {
    const handle = await contender.start({
      logStatements: false,
      port: await freePort(),
      suffix: '-cold',
      probe: { query: contender.coldStartQuery },
    });
    await handle.stop();
    times.push(Math.round(handle.readyMs));
  }
  return { query: contender.coldStartQuery, runs: times, medianMs: median(times) };
}

/** The median of some numbers: the middle one, or the mean of the middle two. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The service's look for due scheduled posts, once a second outside every request (see DUE_POSTS
 * in src/blog/posts/posts.sql.ts): left out of the statements of the request it falls beside.
 */
const SCHEDULER_POLL = 'FROM posts p WHERE p.scheduled_at IS NOT NULL';

/**
 * SQL statements per request: starts the contender again with its SQL log on, sends the
 * requests of each operation once to warm up, then once more, counting the statements each
 * logged. Writes with two alternating requests (W2: like, unlike) give the mean of both.
 */
export async function countStatements({ contender, ops, tokens }) {
  if (!contender.statementPattern) return {};
  const handle = await contender.start({
    logStatements: true,
    port: await freePort(),
    suffix: '-sql',
  });
  const counts = {};
  try {
    for (const op of ops) {
      // Once through the requests to warm up, then once more, counting each.
      await sendOnce(handle.url, op, tokens);
      await sleep(50);
      const perBody = [];
      for (const body of op.bodies) {
        const before = fileSize(handle.logFile);
        const [answer] = await sendOnce(handle.url, { ...op, bodies: [body] }, tokens);
        await sleep(100);
        const logged = readFileSync(handle.logFile)
          .subarray(before)
          .toString('utf8')
          .split('\n')
          .filter((line) => !line.includes(SCHEDULER_POLL))
          .join('\n');
        perBody.push(
          problemOf(answer) ? null : (logged.match(contender.statementPattern) ?? []).length,
        );
      }
      counts[op.id] = perBody.includes(null)
        ? null
        : perBody.reduce((a, b) => a + b, 0) / perBody.length;
    }
  } finally {
    await handle.stop();
  }
  // Every operation reads or writes the database: none counted means the log was not matched.
  if (Object.values(counts).every((count) => count === 0)) {
    throw new Error(`no statement matched ${contender.statementPattern} in ${handle.logFile}`);
  }
  return counts;
}
