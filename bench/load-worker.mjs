#!/usr/bin/env node
/**
 * Runs the load of one operation against one server with autocannon's API, in a process of its
 * own (so that the load generator does not share an event loop with the runner), and prints the
 * figures of each round as JSON on stdout.
 *
 *   node bench/load-worker.mjs plan.json
 *
 * plan.json: {
 *   url, headers, bodies: [request bodies, sent in turn by each connection],
 *   check: { kind: 'read', length } | { kind: 'write' },
 *   rounds: [{ name, connections, duration (seconds) }],
 *   pid: the server's process id (optional)
 * }
 *
 * Before each round but the first, the worker waits for the server to answer the requests left
 * over from the previous one, so that a round never pays for the backlog of the one before.
 *
 * Every response is checked: a read must have exactly the reference length (so that a stream
 * of errors cannot look fast), a write must be `{"data":...}` without "errors". Latency
 * percentiles are computed here from autocannon's per-response times, in fractional ms
 * (autocannon's own histogram rounds to whole milliseconds); `max` is the slowest response of
 * any status. A request without an answer after 10 s is a timeout (autocannon's default): the
 * client drops the connection and opens another.
 *
 * Errors by kind, per round: `timeouts`, `non2xx` (any status but 2xx), `gqlErrors` (a body with
 * "errors", or a write that is not `{"data":...}`), `sizeMismatches` (a read of another length),
 * `socketErrors` (connection errors other than timeouts); `firstBadBody` is the first bad body.
 *
 * With the server's `pid` (Linux), each round also gives the CPU time that the server's process
 * spent during the round, every thread of it (the collector's and libuv's included), per answer:
 * `serverCpuUsPerRequest`. A database server's own work (PostgreSQL) is not in it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { cpuMsOf } from './lib/processes.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** The errors key of a GraphQL response (inside a string value its quotes would be escaped). */
const ERRORS_KEY = '"errors":[';

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

async function runRound(round) {
  const counters = { gqlErrors: 0, sizeMismatches: 0, firstBadBody: null };
  const bad = (body, kind) => {
    counters[kind]++;
    counters.firstBadBody ??= body.slice(0, 300);
    return false;
  };
  const verifyBody =
    plan.check.kind === 'read'
      ? (body) => {
          if (body.includes(ERRORS_KEY)) return bad(body, 'gqlErrors');
          if (body.length !== plan.check.length) return bad(body, 'sizeMismatches');
          return true;
        }
      : (body) => {
          if (!body.startsWith('{"data":') || body.includes(ERRORS_KEY)) {
            return bad(body, 'gqlErrors');
          }
          return true;
        };

  const latencies = [];
  let non2xx = 0;
  let max = null;
  const instance = autocannon({
    url: plan.url,
    connections: round.connections,
    duration: round.duration,
    requests: plan.bodies.map((body) => ({
      method: 'POST',
      headers: plan.headers,
      body,
    })),
    verifyBody,
  });
  const started = process.hrtime.bigint();
  const cpuAtStart = plan.pid ? cpuMsOf(plan.pid) : null;
  let ended = started;
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    ended = process.hrtime.bigint();
    if (max === null || responseTime > max) max = responseTime;
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    else non2xx++;
  });
  const result = await instance;
  const cpuAtEnd = plan.pid ? cpuMsOf(plan.pid) : null;
  const seconds = Number(ended - started) / 1e9;
  const requests = latencies.length + non2xx;
  latencies.sort((a, b) => a - b);
  return {
    connections: round.connections,
    seconds,
    requests,
    serverCpuUsPerRequest:
      cpuAtStart !== null && cpuAtEnd !== null && requests > 0
        ? ((cpuAtEnd - cpuAtStart) * 1000) / requests
        : null,
    rps: seconds > 0 ? latencies.length / seconds : 0,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max,
    non2xx,
    // autocannon counts a timeout as an error too: socketErrors are the other errors.
    errors: result.errors,
    timeouts: result.timeouts,
    socketErrors: result.errors - result.timeouts,
    gqlErrors: counters.gqlErrors,
    sizeMismatches: counters.sizeMismatches,
    firstBadBody: counters.firstBadBody,
  };
}

/**
 * Waits until the server has worked off the requests still queued from the previous round
 * (autocannon stops sending at the end of a round, but the server still owes the answers):
 * one request queued behind them comes back.
 */
async function drain() {
  const response = await fetch(plan.url, {
    method: 'POST',
    headers: plan.headers,
    body: plan.bodies[0],
    signal: AbortSignal.timeout(60_000),
  });
  await response.arrayBuffer();
}

const rounds = {};
for (const [index, round] of plan.rounds.entries()) {
  if (index > 0) await drain();
  rounds[round.name] = await runRound(round);
}
process.stdout.write(`${JSON.stringify({ rounds })}\n`);
