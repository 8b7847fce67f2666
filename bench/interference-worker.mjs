#!/usr/bin/env node
/**
 * One client of the interference round (bench/interference.mjs), in a process of its own, so
 * that the attacker's large answers and the prober's timing never share an event loop. Prints
 * its figures as JSON on stdout.
 *
 *   node bench/interference-worker.mjs plan.json
 *
 * plan.json, common: { role: 'probe' | 'attack', url, localAddress, startAt (epoch ms),
 *   durationS, timeoutMs (per request) }
 *
 * probe: { everyMs, keepAlive } sends `GET /health/live` and `POST /graphql { __typename }`,
 *   each in its own loop, one at a time, on the schedule of one every `everyMs`, for
 *   `durationS` (after `warmupS`, not counted). `keepAlive`: each loop keeps one connection
 *   open; otherwise each probe opens a new one. A probe's latency is counted from the time the
 *   schedule meant to send it, so a stall that holds one probe also counts the probes it kept
 *   from being sent (no coordinated omission); `sentP50`... are from the actual send.
 *
 * attack: { connections, bodies: [{ id, body }] } keeps `connections` connections busy for
 *   `durationS`, each sending the bodies in turn (connection i starts at body i), the next as
 *   soon as the last is answered; requests in flight at the end are waited for, up to
 *   `timeoutMs`. Per body: the answers by outcome and their latencies.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

import { latencySummary as summary } from './lib/latency.mjs';
import { outcomeOf } from './lib/outcomes.mjs';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
/** Of a larger answer, only its head and tail are kept (codes and the errors key are there). */
const KEEP_WHOLE = 8 * 1024 * 1024;
const KEEP_ENDS = 64 * 1024;

/**
 * One request; resolves { status, length, text } (`text`: the whole body when small, else its
 * head and tail) or { error } (a network error, or `timeout` after `timeoutMs`).
 */
function send(agent, { method, path, body, headers = {} }) {
  const { hostname, port } = new URL(plan.url);
  return new Promise((resolve) => {
    const req = request(
      {
        host: hostname,
        port,
        method,
        path,
        agent,
        localAddress: plan.localAddress,
        headers: body ? { 'content-type': 'application/json', ...headers } : headers,
      },
      (res) => {
        const head = [];
        let tail = [];
        let headBytes = 0;
        let tailBytes = 0;
        let length = 0;
        res.on('data', (chunk) => {
          length += chunk.length;
          if (headBytes < KEEP_WHOLE) {
            head.push(chunk);
            headBytes += chunk.length;
            return;
          }
          tail.push(chunk);
          tailBytes += chunk.length;
          while (tailBytes - tail[0].length > KEEP_ENDS) tailBytes -= tail.shift().length;
        });
        res.on('end', () => {
          clearTimeout(timer);
          let text = Buffer.concat(head).toString('utf8');
          if (length > KEEP_WHOLE) {
            text = `${text.slice(0, KEEP_ENDS)}\u0000${Buffer.concat(tail).toString('utf8')}`;
            tail = [];
          }
          resolve({ status: res.statusCode, length, text });
        });
        res.on('error', (error) => {
          clearTimeout(timer);
          resolve({ error: error.code ?? error.message });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error('timeout'));
    }, plan.timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      resolve({ error: error.message === 'timeout' ? 'timeout' : (error.code ?? error.message) });
    });
    req.end(body);
  });
}

const PROBES = {
  live: {
    request: { method: 'GET', path: '/health/live' },
    ok: (answer) => answer.status === 200,
  },
  typename: {
    request: { method: 'POST', path: '/graphql', body: '{"query":"{ __typename }"}' },
    ok: (answer) =>
      answer.status === 200 && answer.text.trimEnd() === '{"data":{"__typename":"Query"}}',
  },
};

async function probeLoop(probe, until, countFrom) {
  const agent = new Agent({ keepAlive: plan.keepAlive, maxSockets: 1 });
  const fromSchedule = [];
  const fromSend = [];
  let errors = 0;
  let firstError = null;
  let due = performance.now();
  while (performance.now() < until) {
    const now = performance.now();
    if (now < due) await sleep(due - now);
    const sent = performance.now();
    const answer = await send(agent, probe.request);
    const latency = performance.now() - sent;
    if (sent >= countFrom) {
      fromSend.push(latency);
      // The probes the schedule meant to send while this one waited would each have waited for
      // the rest of it (HdrHistogram's correction for coordinated omission).
      for (let late = latency; late > 0; late -= plan.everyMs) fromSchedule.push(late);
      if (answer.error || !probe.ok(answer)) {
        errors++;
        firstError ??= answer.error ?? `HTTP ${answer.status}: ${answer.text.slice(0, 200)}`;
      }
    }
    due = Math.max(sent + plan.everyMs, performance.now());
  }
  agent.destroy();
  const sentSummary = summary(fromSend);
  return {
    ...summary(fromSchedule),
    sent: sentSummary.count,
    sentP50: sentSummary.p50,
    sentP99: sentSummary.p99,
    sentMax: sentSummary.max,
    errors,
    firstError,
  };
}

async function runProbes() {
  const countFrom = plan.startAt - Date.now() + performance.now() + (plan.warmupS ?? 0) * 1000;
  const until = countFrom + plan.durationS * 1000;
  await sleep(Math.max(0, plan.startAt - Date.now()));
  const [live, typename] = await Promise.all([
    probeLoop(PROBES.live, until, countFrom),
    probeLoop(PROBES.typename, until, countFrom),
  ]);
  return { live, typename };
}

async function runAttack() {
  const agent = new Agent({ keepAlive: true, maxSockets: plan.connections });
  const perBody = new Map(
    plan.bodies.map(({ id }) => [id, { outcomes: {}, latencies: [], largestAnswer: 0 }]),
  );
  await sleep(Math.max(0, plan.startAt - Date.now()));
  const until = performance.now() + plan.durationS * 1000;
  const connection = async (index) => {
    for (let turn = index; performance.now() < until; turn++) {
      const { id, body } = plan.bodies[turn % plan.bodies.length];
      const sent = performance.now();
      const answer = await send(agent, { method: 'POST', path: '/graphql', body });
      const figures = perBody.get(id);
      figures.latencies.push(performance.now() - sent);
      const outcome = outcomeOf(answer);
      figures.outcomes[outcome] = (figures.outcomes[outcome] ?? 0) + 1;
      figures.largestAnswer = Math.max(figures.largestAnswer, answer.length ?? 0);
    }
  };
  await Promise.all(Array.from({ length: plan.connections }, (_, i) => connection(i)));
  agent.destroy();
  const bodies = {};
  for (const [id, { outcomes, latencies, largestAnswer }] of perBody) {
    bodies[id] = { ...summary(latencies), outcomes, largestAnswer };
  }
  return { bodies };
}

const result = plan.role === 'probe' ? await runProbes() : await runAttack();
process.stdout.write(`${JSON.stringify(result)}\n`);
