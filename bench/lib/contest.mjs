import { deepStrictEqual } from 'node:assert';

import {
  countStatements,
  leaves,
  measureColdStart,
  problemOf,
  runLoad,
  sendOnce,
} from './measure.mjs';
import { freePort, memoryOf, watchMemory } from './processes.mjs';

/**
 * The kinds of error a load round counts (bench/load-worker.mjs), with their names in the report.
 * autocannon counts a timeout among its errors too; `socketErrors` are the other ones.
 */
export const ERROR_KINDS = {
  timeouts: ['timeout', 'timeouts'],
  non2xx: ['non-2xx', 'non-2xx'],
  gqlErrors: ['GraphQL error', 'GraphQL errors'],
  sizeMismatches: ['wrong size', 'wrong sizes'],
  socketErrors: ['socket error', 'socket errors'],
};

/** A round's errors by kind (an older round without socketErrors: errors less timeouts). */
export function errorsOf(round) {
  const socketErrors = round.socketErrors ?? (round.errors ?? 0) - (round.timeouts ?? 0);
  return Object.fromEntries(
    Object.keys(ERROR_KINDS).map((kind) => [
      kind,
      kind === 'socketErrors' ? socketErrors : (round[kind] ?? 0),
    ]),
  );
}

/**
 * An operation's errors by kind over its rounds (warm-ups included), plus `silentRounds`: the
 * measured rounds in which not one response came back.
 */
export function errorsByKind(rounds, silentRounds = 0) {
  const total = Object.fromEntries(Object.keys(ERROR_KINDS).map((kind) => [kind, 0]));
  for (const round of Object.values(rounds)) {
    for (const [kind, n] of Object.entries(errorsOf(round))) total[kind] += n;
  }
  return { ...total, silentRounds };
}

/** "3 timeouts, 1 non-2xx": the errors of `byKind` that are not 0, or "0". */
export function describeErrors(byKind) {
  const parts = Object.entries(ERROR_KINDS)
    .filter(([kind]) => byKind?.[kind])
    .map(([kind, [one, many]]) => `${byKind[kind]} ${byKind[kind] === 1 ? one : many}`);
  if (byKind?.silentRounds)
    parts.push(
      `${byKind.silentRounds} round${byKind.silentRounds === 1 ? '' : 's'} without a response`,
    );
  if (byKind?.failedChecks)
    parts.push(`${byKind.failedChecks} failed check${byKind.failedChecks === 1 ? '' : 's'}`);
  return parts.length ? parts.join(', ') : '0';
}

/** What the load worker checks in each response to `op`, whose first answer was `body`. */
const checkOf = (op, body) =>
  op.kind === 'read' ? { kind: 'read', length: body.length } : { kind: 'write' };

/** The warm-up and throughput rounds, at the throughput connections, named with `suffix`. */
const throughputRounds = (options, suffix = '') => [
  { name: `warmup${suffix}`, connections: options.connections, duration: options.warmup },
  { name: `throughput${suffix}`, connections: options.connections, duration: options.duration },
];

/** Compares a contender's answer to an operation with our service's (the reference). */
function compareToReference(contender, op, answers, reference) {
  if (!reference) return {};
  const ours = reference[op.id][0].body;
  const theirs = answers[0].body;
  const comparison = {
    responseBytes: Buffer.byteLength(theirs),
    sizeVsOurs: theirs.length / ours.length,
  };
  if (op.kind !== 'read') return comparison;
  if (contender.dialect === 'graphql') return { ...comparison, sameAsOurs: theirs === ours };
  try {
    deepStrictEqual(leaves(theirs), leaves(ours));
    return { ...comparison, sameDataAsOurs: true };
  } catch {
    return { ...comparison, sameDataAsOurs: false };
  }
}

/**
 * Benchmarks one contender: prepares its data, starts it, checks one answer to each operation
 * (against our service's when a reference is given), runs the load of each operation, records
 * its memory, stops it, then counts SQL statements per request in a second, logging run, and
 * measures its cold start (`options.coldStarts` fresh starts, each up to its first answer).
 *
 * @returns the contender's results; `answers` are the checked responses (our service's become
 * the reference and the ceiling's canned bytes).
 */
export async function benchContender({ contender, ops, tokens, reference, options, ctx, log }) {
  const result = {
    id: contender.id,
    label: contender.label,
    status: 'ok',
    reason: null,
    idleRssMb: null,
    peakRssMb: null,
    peakDuring: null,
    coldStart: null,
    ops: {},
  };
  const answersByOp = {};
  await contender.prepare();
  try {
    let handle;
    try {
      handle = await contender.start({ logStatements: false, port: await freePort() });
    } catch (error) {
      return { ...result, status: 'skipped', reason: `did not start: ${error.message}` };
    }
    const memory = watchMemory(handle.pid);
    const atRest = memoryOf(handle.pid);
    result.idleRssMb = atRest?.rssMb ?? null;
    const highWater = [{ during: 'start', mb: atRest?.peakMb ?? null }];
    try {
      for (const op of ops) {
        const answers = await sendOnce(handle.url, op, tokens);
        const problem = answers.map(problemOf).find(Boolean);
        if (problem) {
          result.ops[op.id] = { status: 'failed', reason: problem };
          log(`    ${op.id}: FAILED ${problem}`);
          continue;
        }
        answersByOp[op.id] = answers;
        const comparison = compareToReference(contender, op, answers, reference);
        const rounds = await runLoad({
          ctx,
          url: handle.url,
          pid: handle.pid,
          op,
          tokens,
          check: checkOf(op, answers[0].body),
          rounds: [
            ...throughputRounds(options),
            {
              name: 'latencyWarmup',
              connections: options.latencyConnections,
              duration: Math.min(options.warmup, 2),
            },
            {
              name: 'latency',
              connections: options.latencyConnections,
              duration: options.duration,
            },
          ],
        });
        // A measured round in which not one response came back is an error too.
        const silent = ['throughput', 'latency'].filter((name) => rounds[name].requests === 0);
        const byKind = errorsByKind(rounds, silent.length);
        const errors = Object.values(byKind).reduce((sum, n) => sum + n, 0);
        if (silent.length)
          log(`    ${op.id}: no response at all in the ${silent.join(' and ')} round`);
        result.ops[op.id] = {
          status: 'ok',
          responseBytes: Buffer.byteLength(answers[0].body),
          ...comparison,
          rps: rounds.throughput.rps,
          serverCpuUsPerRequest: rounds.throughput.serverCpuUsPerRequest ?? null,
          throughputP99: rounds.throughput.p99,
          throughputMax: rounds.throughput.max,
          p50: rounds.latency.p50,
          p99: rounds.latency.p99,
          errors,
          errorsByKind: byKind,
          rounds,
        };
        result.ops[op.id].rssHighWaterMb = memoryOf(handle.pid)?.peakMb ?? null;
        highWater.push({ during: op.id, mb: result.ops[op.id].rssHighWaterMb });
        if (handle.exited) throw new Error(`${contender.id} exited during ${op.id}`);
        const firstBadBody = Object.values(rounds).find(
          (round) => round.firstBadBody,
        )?.firstBadBody;
        log(
          `    ${op.id}: ${rounds.throughput.rps.toFixed(0)} req/s, ` +
            `p99 ${rounds.throughput.p99?.toFixed(1)} ms, max ${rounds.throughput.max?.toFixed(0)} ms @${options.connections}; ` +
            `p50 ${rounds.latency.p50?.toFixed(2)} ms, p99 ${rounds.latency.p99?.toFixed(2)} ms @${options.latencyConnections}` +
            (errors
              ? `; ERRORS: ${describeErrors(byKind)}${firstBadBody ? ` (${firstBadBody})` : ''}`
              : ''),
        );
      }
    } catch (error) {
      result.status = 'failed';
      result.reason = error.message;
      log(`    FAILED: ${error.message}`);
    } finally {
      const sampled = memory.stop();
      result.peakRssMb = Math.max(memoryOf(handle.pid)?.peakMb ?? 0, sampled ?? 0) || null;
      result.peakDuring = peakDuring(highWater);
      await handle.stop();
    }
    if (result.status === 'ok' && contender.statementPattern) {
      try {
        const statements = await countStatements({ contender, ops, tokens });
        for (const [id, count] of Object.entries(statements)) {
          if (result.ops[id]) result.ops[id].statements = count;
        }
      } catch (error) {
        log(`    (statement count failed: ${error.message})`);
      }
    }
    if (result.status === 'ok' && contender.coldStartQuery && options.coldStarts > 0) {
      try {
        result.coldStart = await measureColdStart({ contender, runs: options.coldStarts });
        log(
          `    cold start: ${result.coldStart.medianMs} ms median (${result.coldStart.runs.join(', ')} ms)`,
        );
      } catch (error) {
        log(`    (cold start failed: ${error.message})`);
      }
    }
  } finally {
    await contender.dispose();
  }
  return { ...result, answers: answersByOp };
}

/**
 * Where a process reached its peak RSS: the first of `highWater` (its VmHWM after start-up, then
 * after each operation's rounds, in order) that holds the last one's value. VmHWM never goes down,
 * so that is the step during which the peak was set ('start', or an operation's id); null when
 * /proc gave no figure.
 */
function peakDuring(highWater) {
  const peak = highWater.at(-1)?.mb;
  if (peak == null) return null;
  return highWater.find((step) => step.mb === peak)?.during ?? null;
}

/**
 * Another throughput pass of a contender (see run.mjs): a fresh copy of its data and a fresh
 * server, then for each operation that it answered in the first pass, the first check again (a
 * read must answer as many bytes as then), a warm-up and a throughput round. Folds them into
 * `result` with {@link foldPass}.
 */
export async function throughputPass({ contender, ops, tokens, result, pass, options, ctx, log }) {
  const measured = ops.filter((op) => result.ops[op.id]?.status === 'ok');
  if (result.status !== 'ok' || measured.length === 0) return;
  log(`\n  ${contender.label}, pass ${pass}`);
  await contender.prepare();
  try {
    const handle = await contender.start({ logStatements: false, port: await freePort() });
    try {
      for (const op of measured) {
        const opResult = result.ops[op.id];
        const [answer] = await sendOnce(handle.url, op, tokens);
        const bytes = Buffer.byteLength(answer.body);
        const problem =
          problemOf(answer) ??
          (op.kind === 'read' && bytes !== opResult.responseBytes
            ? `${bytes} bytes, ${opResult.responseBytes} in the first pass`
            : null);
        const rounds = problem
          ? { [`throughput${pass}`]: { requests: 0, failedCheck: problem } }
          : await runLoad({
              ctx,
              url: handle.url,
              pid: handle.pid,
              op,
              tokens,
              check: checkOf(op, answer.body),
              rounds: throughputRounds(options, pass),
            });
        foldPass(opResult, rounds, pass);
        const round = rounds[`throughput${pass}`];
        log(
          `    ${op.id}: ` +
            (problem
              ? `FAILED ${problem}`
              : `${round.rps.toFixed(0)} req/s, p99 ${round.p99?.toFixed(1)} ms, max ${round.max?.toFixed(0)} ms @${options.connections}`) +
            (opResult.errors ? `; ERRORS: ${describeErrors(opResult.errorsByKind)}` : ''),
        );
        if (handle.exited) throw new Error(`${contender.id} exited during ${op.id}`);
      }
    } finally {
      await handle.stop();
    }
  } catch (error) {
    result.status = 'failed';
    result.reason = `pass ${pass}: ${error.message}`;
    log(`    FAILED: ${error.message}`);
  } finally {
    await contender.dispose();
  }
}

/**
 * Folds the rounds of throughput pass `pass` into an operation's results: its req/s, server CPU
 * per answer, p99 and max become those of its best throughput round so far, `rpsByPass` keeps
 * every pass's req/s, and its errors count every round of every pass (a failed check counts as
 * one).
 */
export function foldPass(opResult, rounds, pass) {
  const round = rounds[`throughput${pass}`];
  opResult.rounds = { ...opResult.rounds, ...rounds };
  opResult.rpsByPass = [...(opResult.rpsByPass ?? [opResult.rps]), round.rps ?? 0];
  opResult.failedChecks = (opResult.failedChecks ?? 0) + (round.failedCheck ? 1 : 0);
  if ((round.rps ?? 0) > opResult.rps) {
    opResult.rps = round.rps;
    opResult.serverCpuUsPerRequest = round.serverCpuUsPerRequest ?? null;
    opResult.throughputP99 = round.p99;
    opResult.throughputMax = round.max;
    opResult.bestPass = pass;
  }
  opResult.bestPass ??= 1;
  const measuredRounds = Object.keys(opResult.rounds).filter((name) =>
    /^(throughput\d*|latency)$/.test(name),
  );
  const silent = measuredRounds.filter(
    (name) => opResult.rounds[name].requests === 0 && !opResult.rounds[name].failedCheck,
  ).length;
  const byKind = {
    ...errorsByKind(opResult.rounds, silent),
    ...(opResult.failedChecks ? { failedChecks: opResult.failedChecks } : {}),
  };
  opResult.errorsByKind = byKind;
  opResult.errors = Object.values(byKind).reduce((sum, n) => sum + n, 0);
}
