#!/usr/bin/env node
/**
 * Where the CPU goes (issue 20, item 2): V8 CPU profiles of our service (SQLite) and of the
 * Fastify + Mercurius + JIT contender on Q2 (the feed) and Q3 (users with their posts) by default,
 * or on the operations that --operations names (reads and writes), split side by side into
 * parsing and validation, execution, resolvers, SQL, serialisation, Nest, Apollo, Mercurius,
 * HTTP, auth, logging and GC. Writes bench/results/profile-latest.{md,json} (or into --out). See
 * bench/README.md, "CPU profiles".
 *
 *   node bench/profile.mjs [--operations Q2,Q3] [--duration 8] [--warmup 2] [--connections 10]
 *     [--scale 1] [--interval 1000] [--keep-data] [--allocations] [--out bench/results]
 *
 * Each pair (contender, operation) gets a fresh server started with `--cpu-prof`, a warm-up
 * round, then the measured round; the server is stopped (SIGTERM: both exit cleanly, so Node
 * writes the profile) and only the samples taken during the measured round are counted (the
 * profile's clock is the monotonic clock that process.hrtime reads). --keep-data keeps the
 * scratch folder with the .cpuprofile files (they open in Chrome DevTools).
 *
 * With --allocations it measures memory instead of time: what each request allocates, in the
 * same categories, from V8's sampling heap profiler with the objects collected since counted too
 * (bench/lib/allocation-sampler.js, preloaded into each server and switched on and off by SIGUSR2
 * around the measured round; --interval is then the mean bytes between samples, 512 by default).
 * It writes bench/results/profile-allocations-latest.{md,json}; --keep-data keeps the
 * .heapprofile files.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { mercurius } from './contenders/mercurius.mjs';
import { oursSqlite } from './contenders/ours.mjs';
import { generate } from './generate.mjs';
import { FULL_SIZES, scaleSizes } from './lib/blog-plan.mjs';
import { ensureBuild } from './lib/build.mjs';
import { mintToken } from './lib/jwt.mjs';
import { problemOf, runLoad, sendOnce } from './lib/measure.mjs';
import { positiveNumber } from './lib/options.mjs';
import { freePort, installCleanup } from './lib/processes.mjs';
import { graphqlOperations, OPERATION_IDS, OPERATION_TITLES } from './operations.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ALLOCATION_SAMPLER = join(ROOT, 'bench/lib/allocation-sampler.js');
const log = (line = '') => console.log(line);

const SEED = '42';
/** The operations profiled when --operations names none. */
const DEFAULT_OPERATIONS = ['Q2', 'Q3'];
const CONTENDERS = [
  { make: oursSqlite, name: 'ours' },
  { make: mercurius, name: 'Mercurius' },
];

/** The categories of the split, in the order of the tables. */
const CATEGORIES = {
  parse: 'parse + validate',
  execution: 'execution',
  resolvers: 'resolvers and loaders',
  sql: 'SQL and driver',
  serialisation: 'serialisation',
  socket: 'socket write',
  nest: "Nest's wrappers",
  apollo: "Apollo's pipeline",
  mercurius: "Mercurius's pipeline",
  http: 'HTTP (Fastify, Node)',
  auth: 'auth (JWT)',
  logging: 'logging and observability',
  gc: 'garbage collector',
  other: 'other',
};

/** Frames that are not the server's work: left out of the split. */
const LEFT_OUT = new Set(['(idle)', '(program)', '(root)']);
/** Functions that turn the response into JSON, wherever they are called from. */
const SERIALISERS = new Set(['stringify', 'JSON.stringify', 'serialize', 'prettyJSONStringify']);
/**
 * Node's native write of a string to a socket: UTF-8 encoding and the write(2) system call, on
 * the loopback also the kernel's delivery to the load generator.
 */
const SOCKET_WRITE = 'writeUtf8String';
/**
 * The statement calls and the date decoding of the baselines' Store (bench/baseline/store.mjs):
 * SQL, as our service's runner and driver are; its row mappers (toPost...) stay resolvers, as ours.
 */
const STORE_SQL = new Set(['prepare', 'all', 'get', 'run', 'toDate', 'fromDate']);

/** [category, pattern] on a file's path inside the repository: the first match wins. */
const BY_PATH = [
  ['sql', /^dist\/src\/blog\/common\/(sql\/|sqlite-connection-lock)/],
  ['serialisation', /^dist\/src\/blog\/common\/response-size/],
  ['parse', /^dist\/src\/blog\/limits\//],
  ['auth', /^dist\/src\/blog\/auth\//],
  ['execution', /^dist\/src\/blog\/execution\//],
  ['resolvers', /^dist\/src\/blog\//],
  ['logging', /^dist\/src\/observability\//],
  ['http', /^dist\/src\/http\//],
  ['auth', /^bench\/lib\/jwt\.mjs$/],
  ['resolvers', /^bench\/baseline\//],
];

/** [category, pattern] on a file's path inside its package (after the last node_modules/). */
const BY_PACKAGE = [
  ['parse', /^graphql\/(language|validation)\//],
  ['parse', /^(@escape\.tech\/graphql-armor[^/]*|graphql-query-complexity)\//],
  ['execution', /^(graphql\/execution|graphql-jit)\//],
  ['resolvers', /^dataloader\//],
  ['sql', /^(better-sqlite3|pg|pg-[^/]+|typeorm)\//],
  ['serialisation', /^fast-json-stringify\//],
  ['auth', /^(@nestjs\/jwt|jsonwebtoken|jws|jwa)\//],
  // rxjs: the Observables of Nest's interceptors.
  ['nest', /^(@nestjs\/[^/]+|rxjs)\//],
  ['apollo', /^@(apollo|as-integrations)\//],
  ['mercurius', /^mercurius\//],
  ['http', /^(fastify|@fastify\/[^/]+|find-my-way|light-my-request|avvio)\//],
  ['logging', /^(pino|pino-[^/]+|@pinojs\/[^/]+|sonic-boom)\//],
];

/** Node's own modules of the HTTP path. */
const NODE_HTTP =
  /^node:(https?|_http_\w+|net|events|stream|internal\/(streams\/.*|stream_base_commons|http))$/;

/** The operation ids of `--operations Q3,W1`, in the benchmark's order; unknown ids refused. */
function operationsOption(value) {
  const ids = new Set((value ?? '').split(',').map((id) => id.trim().toUpperCase()));
  ids.delete('');
  const unknown = [...ids].filter((id) => !OPERATION_IDS.includes(id));
  if (ids.size === 0 || unknown.length) {
    throw new Error(`--operations needs ids among ${OPERATION_IDS.join(',')}`);
  }
  return OPERATION_IDS.filter((id) => ids.has(id));
}

function parseCli(argv) {
  const options = {
    operations: DEFAULT_OPERATIONS,
    duration: 8,
    warmup: 2,
    connections: 10,
    scale: 1,
    interval: null,
    allocations: false,
    out: join(ROOT, 'bench/results'),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => positiveNumber(arg, argv[++i]);
    if (arg === '--operations') options.operations = operationsOption(argv[++i]);
    else if (arg === '--duration') options.duration = value();
    else if (arg === '--warmup') options.warmup = value();
    else if (arg === '--connections') options.connections = Math.round(value());
    else if (arg === '--scale') options.scale = value();
    else if (arg === '--interval') options.interval = Math.round(value());
    else if (arg === '--keep-data') options.keepData = true;
    else if (arg === '--allocations') options.allocations = true;
    else if (arg === '--out') options.out = argv[++i];
    else throw new Error(`Unknown option ${arg}`);
  }
  // µs between CPU samples, or bytes between allocation samples.
  options.interval ??= options.allocations ? 512 : 1000;
  return options;
}

/**
 * A frame's script as a path inside the repository, or as given (node:..., empty). CPU profiles
 * name scripts by URL; heap profiles name CommonJS ones by their absolute path.
 */
function scriptOf(url) {
  if (!url.startsWith('file://') && !url.startsWith('/')) return url;
  const path = url.startsWith('/') ? url : fileURLToPath(url);
  const inside = relative(ROOT, path);
  return inside.startsWith('..') ? path : inside;
}

/**
 * The category of a frame by its own script and name, or null when it has none (its time goes
 * to its nearest categorised caller), or 'left out'.
 */
function categoryOf({ functionName: name, url }) {
  if (LEFT_OUT.has(name)) return 'left out';
  if (name === '(garbage collector)') return 'gc';
  if (SERIALISERS.has(name)) return 'serialisation';
  if (name === SOCKET_WRITE) return 'socket';
  const script = scriptOf(url);
  // graphql-jit's compiled functions: no script, named after the type or field they resolve.
  if (script === '')
    return name.endsWith('Handler') || name.includes('__context') ? 'execution' : null;
  if (script === 'bench/baseline/store.mjs' && STORE_SQL.has(name)) return 'sql';
  if (NODE_HTTP.test(script)) return 'http';
  const modules = script.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const inPackage = script.slice(modules + 'node_modules/'.length);
    return BY_PACKAGE.find(([, pattern]) => pattern.test(inPackage))?.[0] ?? null;
  }
  return BY_PATH.find(([, pattern]) => pattern.test(script))?.[0] ?? null;
}

/**
 * Each profile node's category: its own, else its nearest categorised caller's, else 'other';
 * 'left out' for (idle), (program) and (root).
 */
function categorise(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  }
  const category = new Map();
  const resolve = (id) => {
    if (category.has(id)) return category.get(id);
    const own = categoryOf(byId.get(id).callFrame);
    const parent = parentOf.get(id);
    const found = own ?? (parent === undefined ? 'other' : resolve(parent));
    // A frame under (root) without a category of its own or above: 'other', not left out.
    const result = found === 'left out' && own === null ? 'other' : found;
    category.set(id, result);
    return result;
  };
  for (const node of profile.nodes) resolve(node.id);
  return { byId, category };
}

/**
 * The samples of `profile` between `from` and `to` (µs, the profile's monotonic clock), each with
 * its node and its duration (the time to the next sample).
 */
function samplesIn(profile, from, to) {
  const samples = [];
  let time = profile.startTime;
  const { timeDeltas } = profile;
  for (let i = 0; i < profile.samples.length; i++) {
    time += timeDeltas[i];
    const next = i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0;
    if (time >= from && time < to) samples.push({ node: profile.samples[i], us: next });
  }
  return samples;
}

const round3 = (x) => Math.round(x * 1000) / 1000;

/** The top `n` functions by self time among `samples` matching `keep`, in ms per request. */
function topFunctions(samples, byId, category, requests, { n, keep = () => true }) {
  const totals = new Map();
  for (const { node, us } of samples) {
    const { callFrame } = byId.get(node);
    if (!keep(callFrame, category.get(node))) continue;
    const script = scriptOf(callFrame.url);
    const key = `${callFrame.functionName}\u0000${script}\u0000${callFrame.lineNumber}`;
    const entry = totals.get(key) ?? {
      function: callFrame.functionName || '(anonymous)',
      at: script ? `${script}:${callFrame.lineNumber + 1}` : '(native)',
      category: category.get(node),
      us: 0,
    };
    entry.us += us;
    totals.set(key, entry);
  }
  return [...totals.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, n)
    .map(({ us, ...entry }) => ({ ...entry, msPerRequest: round3(us / 1000 / requests) }));
}

/** Splits the samples of the measured window into the categories, in ms per request. */
function split(profile, window, requests) {
  const { byId, category } = categorise(profile);
  let samples = samplesIn(profile, window.from, window.to);
  let windowNote = 'the samples of the measured round';
  if (samples.length === 0) {
    // Clocks that do not match: everything but start-up (module loading) instead.
    const loading = new Set();
    for (const node of profile.nodes) {
      if (node.callFrame.url.startsWith('node:internal/modules')) {
        const stack = [node.id];
        while (stack.length) {
          const id = stack.pop();
          loading.add(id);
          stack.push(...(byId.get(id).children ?? []));
        }
      }
    }
    samples = samplesIn(profile, -Infinity, Infinity).filter(({ node }) => !loading.has(node));
    windowNote = 'all samples but those under module loading (the window was not found)';
  }
  const us = Object.fromEntries(Object.keys(CATEGORIES).map((key) => [key, 0]));
  const leftOut = {};
  for (const { node, us: time } of samples) {
    const key = category.get(node);
    if (key === 'left out') {
      const name = byId.get(node).callFrame.functionName;
      leftOut[name] = (leftOut[name] ?? 0) + time;
    } else us[key] += time;
  }
  const totalUs = Object.values(us).reduce((a, b) => a + b, 0);
  const perRequest = (time) => round3(time / 1000 / requests);
  return {
    window: windowNote,
    samples: samples.length,
    totalMsPerRequest: perRequest(totalUs),
    categories: Object.fromEntries(
      Object.entries(us).map(([key, time]) => [
        key,
        { msPerRequest: perRequest(time), share: totalUs ? round3(time / totalUs) : 0 },
      ]),
    ),
    leftOutMsPerRequest: Object.fromEntries(
      Object.entries(leftOut).map(([name, time]) => [name, perRequest(time)]),
    ),
    topSelf: topFunctions(samples, byId, category, requests, {
      n: 15,
      keep: (_frame, key) => key !== 'left out',
    }),
    topSelfInDist: topFunctions(samples, byId, category, requests, {
      n: 10,
      keep: (frame) => scriptOf(frame.url).startsWith('dist/src/'),
    }),
    topOther: topFunctions(samples, byId, category, requests, {
      n: 10,
      keep: (_frame, key) => key === 'other',
    }),
    topByCategory: Object.fromEntries(
      Object.keys(CATEGORIES).map((key) => [
        key,
        topFunctions(samples, byId, category, requests, {
          n: 5,
          keep: (_frame, of) => of === key,
        }),
      ]),
    ),
  };
}

/**
 * What the requests of the measured round allocated, by category, in KB per request: each
 * sampled allocation goes to its innermost frame with a category, as a CPU sample does. The
 * profile is a tree (V8's `SamplingHeapProfile`), each node with the bytes its own frame
 * allocated, scaled by V8 to an estimate of all of them.
 */
function splitAllocations(profile, requests) {
  const bytes = Object.fromEntries(Object.keys(CATEGORIES).map((key) => [key, 0]));
  const functions = new Map();
  const walk = (node, inherited) => {
    const own = categoryOf(node.callFrame);
    const category = own === null || own === 'left out' ? inherited : own;
    bytes[category] += node.selfSize;
    if (node.selfSize > 0) {
      const { functionName, url, lineNumber } = node.callFrame;
      const script = scriptOf(url);
      const key = `${functionName}\u0000${script}\u0000${lineNumber}\u0000${category}`;
      const entry = functions.get(key) ?? {
        function: functionName || '(anonymous)',
        at: script ? `${script}:${lineNumber + 1}` : '(native)',
        category,
        bytes: 0,
      };
      entry.bytes += node.selfSize;
      functions.set(key, entry);
    }
    for (const child of node.children ?? []) walk(child, category);
  };
  walk(profile.head, 'other');
  const total = Object.values(bytes).reduce((a, b) => a + b, 0);
  const kb = (n) => round3(n / 1024 / requests);
  const top = (n, keep) =>
    [...functions.values()]
      .filter(keep)
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, n)
      .map(({ bytes: size, ...entry }) => ({ ...entry, kbPerRequest: kb(size) }));
  return {
    totalKbPerRequest: kb(total),
    categories: Object.fromEntries(
      Object.entries(bytes).map(([key, size]) => [
        key,
        { kbPerRequest: kb(size), share: total ? round3(size / total) : 0 },
      ]),
    ),
    topSelf: top(15, () => true),
    topSelfInDist: top(10, (f) => f.at.startsWith('dist/src/')),
  };
}

/** Sends SIGUSR2 to the allocation sampler of `server` and waits for the `file` it then writes. */
async function signalSampler(server, file) {
  process.kill(server.pid, 'SIGUSR2');
  const deadline = Date.now() + 30_000;
  while (!existsSync(file)) {
    if (server.exited) throw new Error(`${server.name} exited while its allocations were sampled`);
    if (Date.now() > deadline) throw new Error(`${server.name}: no ${file} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The profiles a stopped server wrote into `dir`: its main thread's, which the split reads, and
 * its worker threads' (ours on SQLite: the WAL checkpointer), which Node profiles too under
 * `--cpu-prof`. Node names each `CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile`, and the
 * main thread's id is 0.
 */
function readProfiles(dir, id) {
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  const threadOf = (name) => Number(name.split('.').at(-3));
  const main = files.filter((name) => threadOf(name) === 0);
  if (main.length !== 1) {
    throw new Error(`${id}: expected one main-thread .cpuprofile in ${dir}, found ${main.length}`);
  }
  const read = (name) => JSON.parse(readFileSync(join(dir, name), 'utf8'));
  return {
    main: read(main[0]),
    workers: files.filter((name) => threadOf(name) !== 0).map(read),
  };
}

/** The sampled time of worker threads in the window outside `(idle)`, in ms per request. */
function workersBusy(workers, window, requests) {
  let us = 0;
  for (const profile of workers) {
    const idle = new Set(
      profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((n) => n.id),
    );
    for (const sample of samplesIn(profile, window.from, window.to)) {
      if (!idle.has(sample.node)) us += sample.us;
    }
  }
  return { threads: workers.length, msPerRequest: round3(us / 1000 / requests) };
}

const microseconds = () => Number(process.hrtime.bigint() / 1000n);

/**
 * One profiled run: a fresh server of `contender` with the CPU profiler on, a warm-up round and
 * the measured round of `op`, then the split of the measured round's samples.
 */
async function profileRun({ contender, op, ctx, tokens, options, reference }) {
  const dir = join(ctx.tmp, `${contender.id}-${op.id}`);
  mkdirSync(dir, { recursive: true });
  await contender.prepare();
  try {
    if (options.allocations) {
      // The sampler's settings reach the server through its environment.
      process.env.BENCH_ALLOCATIONS_DIR = dir;
      process.env.BENCH_ALLOCATIONS_INTERVAL = String(options.interval);
    }
    const server = await contender.start({
      logStatements: false,
      port: await freePort(),
      suffix: `-${op.id}`,
      nodeArgs: options.allocations
        ? ['--require', ALLOCATION_SAMPLER]
        : ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', String(options.interval)],
    });
    let measured;
    let answer;
    try {
      const answers = await sendOnce(server.url, op, tokens);
      const problem = answers.map(problemOf).find(Boolean);
      if (problem) throw new Error(`${contender.id} ${op.id}: ${problem}`);
      [answer] = answers;
      // A write's answer holds a new id or a count: each response is checked for data only.
      const check =
        op.kind === 'read' ? { kind: 'read', length: answer.body.length } : { kind: 'write' };
      const load = (name, duration) =>
        runLoad({
          ctx,
          url: server.url,
          op,
          tokens,
          check,
          rounds: [{ name, connections: options.connections, duration }],
        });
      await load('warmup', options.warmup);
      if (options.allocations) await signalSampler(server, join(dir, `sampling-${server.pid}`));
      const from = microseconds();
      const { measured: round } = await load('measured', options.duration);
      measured = { round, window: { from, to: microseconds() } };
      if (options.allocations) {
        measured.profileFile = join(dir, `allocations-${server.pid}.heapprofile`);
        await signalSampler(server, measured.profileFile);
      }
    } finally {
      await server.stop();
    }
    const { round, window, profileFile } = measured;
    const errors = round.non2xx + round.errors + round.gqlErrors + round.sizeMismatches;
    if (round.requests === 0) throw new Error(`${contender.id} ${op.id}: no response`);
    const common = {
      requests: round.requests,
      seconds: round3(round.seconds),
      rps: Math.round(round.rps),
      errors,
      sameBytesAsOurs: reference && op.kind === 'read' ? answer.body === reference : null,
    };
    if (options.allocations) {
      const profile = JSON.parse(readFileSync(profileFile, 'utf8'));
      return { ...common, ...splitAllocations(profile, round.requests), answer: answer.body };
    }
    if (server.exited?.signal === 'SIGKILL') {
      throw new Error(`${contender.id} did not exit on SIGTERM: no profile was written`);
    }
    const profiles = readProfiles(dir, contender.id);
    return {
      ...common,
      p50: round.p50 === null ? null : round3(round.p50),
      p99: round.p99 === null ? null : round3(round.p99),
      ...split(profiles.main, window, round.requests),
      workerThreads: workersBusy(profiles.workers, window, round.requests),
      answer: answer.body,
    };
  } finally {
    await contender.dispose();
  }
}

/** "Q2", "Q2 and Q3", "Q3, W1 and W2". */
const listOf = (ids) =>
  ids.length < 2 ? ids.join('') : `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;

const fixed = (x, digits = 3) => (x == null ? '–' : x.toFixed(digits));
const percent = (share) => `${(share * 100).toFixed(1)}`;

/** How a report gives its figures: CPU time or bytes allocated, per request. */
const UNITS = {
  cpu: {
    per: 'ms/req',
    key: 'msPerRequest',
    total: 'totalMsPerRequest',
    totalLabel: 'total CPU',
    digits: 3,
    functionDigits: 3,
    loaded: 'profiled',
  },
  allocations: {
    per: 'KB/req',
    key: 'kbPerRequest',
    total: 'totalKbPerRequest',
    totalLabel: 'allocated',
    digits: 1,
    functionDigits: 2,
    loaded: 'sampled',
    // The collector allocates nothing of a request's.
    without: 'gc',
  },
};

function table(byContender, unit) {
  const [a, b] = CONTENDERS.map(({ name }) => byContender[name]);
  const lines = [
    `| category | ${CONTENDERS[0].name} ${unit.per} | ${CONTENDERS[0].name} % | ` +
      `${CONTENDERS[1].name} ${unit.per} | ${CONTENDERS[1].name} % |`,
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const [key, label] of Object.entries(CATEGORIES)) {
    if (key === unit.without) continue;
    const [x, y] = [a.categories[key], b.categories[key]];
    lines.push(
      `| ${label} | ${fixed(x[unit.key], unit.digits)} | ${percent(x.share)} | ` +
        `${fixed(y[unit.key], unit.digits)} | ${percent(y.share)} |`,
    );
  }
  lines.push(
    `| **${unit.totalLabel}** | **${fixed(a[unit.total], unit.digits)}** | 100 | ` +
      `**${fixed(b[unit.total], unit.digits)}** | 100 |`,
    `| req/s @${a.connections} (${unit.loaded}) | ${a.rps} | | ${b.rps} | |`,
  );
  return lines;
}

function functionsTable(functions, unit) {
  return [
    `| function | file:line | category | ${unit.per} |`,
    '| --- | --- | --- | ---: |',
    ...functions.map(
      (f) =>
        `| \`${f.function}\` | ${f.at} | ${CATEGORIES[f.category] ?? f.category} | ` +
        `${fixed(f[unit.key], unit.functionDigits)} |`,
    ),
  ];
}

/** The run's date, machine, load, commit and data, the first words of either report. */
function runDescription({ date, machine, commit, sizes }) {
  return (
    `${date}, Node ${machine.node}, ${machine.cores} cores, load average ` +
    `${machine.loadAverageAtStart} at start and ${machine.loadAverageAtEnd} at the end` +
    `${commit ? `, commit ${commit}` : ''}. ${sizes.users.toLocaleString('en')} users, ` +
    `${sizes.posts.toLocaleString('en')} posts.`
  );
}

/** An operation's heading and the two contenders' split, in `unit`. */
function operationSection(opId, byContender, unit) {
  return ['', `## ${opId}: ${OPERATION_TITLES[opId]}`, '', ...table(byContender, unit)];
}

function report(results) {
  const { options } = results;
  const leftOut = (byContender, frame) =>
    CONTENDERS.map(
      ({ name }) => `${name} ${fixed(byContender[name].leftOutMsPerRequest[frame] ?? 0)}`,
    ).join(', ');
  const lines = [
    `# CPU profiles: ours and Mercurius on ${listOf(options.operations)}`,
    '',
    `${runDescription(results)} Each server fresh with \`--cpu-prof\` ` +
      `(a sample every ${options.interval} µs), ${options.warmup} s of warm-up, then ` +
      `${options.duration} s at ${options.connections} connections; only the samples of that ` +
      "round count. ms/req: a category's sampled time divided by the requests answered in the " +
      'round. A sample goes to its innermost frame with a category (see bench/README.md, ' +
      '"CPU profiles"); the profiler slows both servers down, so req/s are lower than in ' +
      'latest.md.',
  ];
  for (const opId of options.operations) {
    const byContender = results.operations[opId];
    lines.push(
      ...operationSection(opId, byContender, UNITS.cpu),
      '',
      `Left out: \`(program)\`, native code with no JavaScript on the stack (libuv, the ` +
        `event loop's own work), ${leftOut(byContender, '(program)')} ms/req; \`(idle)\`, ` +
        `waiting, ${leftOut(byContender, '(idle)')} ms/req.`,
    );
    const workers = CONTENDERS.filter(({ name }) => byContender[name].workerThreads?.threads);
    if (workers.length) {
      lines.push(
        '',
        'Worker threads, not in the split (their own profiles; ours on SQLite: the WAL ' +
          'checkpointer), sampled outside `(idle)`: ' +
          workers
            .map(({ name }) => {
              const { threads, msPerRequest } = byContender[name].workerThreads;
              return `${name} ${fixed(msPerRequest)} ms/req (${threads} thread${threads === 1 ? '' : 's'})`;
            })
            .join(', ') +
          '.',
      );
    }
    const ours = byContender[CONTENDERS[0].name];
    lines.push(
      '',
      `### Top ${ours.topSelf.length} self-time functions of ours on ${opId}`,
      '',
      ...functionsTable(ours.topSelf, UNITS.cpu),
      '',
      `### Top self-time functions of ours in dist/src/ on ${opId}`,
      '',
      ...functionsTable(ours.topSelfInDist, UNITS.cpu),
    );
  }
  return `${lines.join('\n')}\n`;
}

function allocationReport(results) {
  const { options } = results;
  const lines = [
    `# Allocation profiles: ours and Mercurius on ${listOf(options.operations)}`,
    '',
    `${runDescription(results)} Each server fresh, ${options.warmup} s of ` +
      `warm-up, then V8's sampling heap profiler (a sample every ${options.interval} bytes on ` +
      'average, the objects collected since counted too) on from just before to just after ' +
      `${options.duration} s at ${options.connections} connections. KB/req: the bytes ` +
      "allocated in a category, as V8 estimates them from its samples, divided by the round's " +
      'requests. An allocation goes to its innermost frame with a category, as a CPU sample ' +
      'does (see bench/README.md, "CPU profiles").',
  ];
  for (const opId of options.operations) {
    const byContender = results.operations[opId];
    lines.push(...operationSection(opId, byContender, UNITS.allocations));
    for (const { name } of CONTENDERS) {
      const run = byContender[name];
      lines.push(
        '',
        `### Top ${run.topSelf.length} allocating functions of ${name} on ${opId}`,
        '',
        ...functionsTable(run.topSelf, UNITS.allocations),
      );
    }
    const ours = byContender[CONTENDERS[0].name];
    lines.push(
      '',
      `### Top allocating functions of ours in dist/src/ on ${opId}`,
      '',
      ...functionsTable(ours.topSelfInDist, UNITS.allocations),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** HEAD, marked when src/ has changes not committed (dist/ is built from the working tree). */
function gitCommit() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: ROOT }).toString().trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--', 'src') ? `${commit} + uncommitted src/` : commit;
  } catch {
    return null;
  }
}

function printRun(name, opId, run) {
  if (run.totalKbPerRequest !== undefined) {
    log(
      `  ${name} ${opId}: ${run.rps} req/s, ${run.requests} requests, ${run.errors} errors, ` +
        `${fixed(run.totalKbPerRequest, 1)} KB allocated/req`,
    );
    return;
  }
  log(
    `  ${name} ${opId}: ${run.rps} req/s, ${run.requests} requests, ${run.errors} errors, ` +
      `${fixed(run.totalMsPerRequest)} ms CPU/req (${run.samples} samples; ${run.window})`,
  );
  const other = run.categories.other;
  log(`    other ${percent(other.share)} %; its top functions:`);
  for (const f of run.topOther) log(`      ${fixed(f.msPerRequest)} ms/req ${f.function} ${f.at}`);
}

async function main() {
  const options = parseCli(process.argv.slice(2));
  const loadAtStart = loadavg()[0];
  ensureBuild(ROOT);
  const ctx = {
    root: ROOT,
    tmp: mkdtempSync(join(tmpdir(), 'blog-bench-profile-')),
    secret: randomBytes(36).toString('base64url'),
    sqlitePristine: null,
  };
  const cleanUp = async () => {
    if (options.keepData) log(`Kept ${ctx.tmp}`);
    else rmSync(ctx.tmp, { recursive: true, force: true });
  };
  installCleanup(cleanUp);
  const results = {
    date: new Date().toISOString().slice(0, 10),
    commit: gitCommit(),
    machine: {
      node: process.version,
      cores: cpus().length,
      loadAverageAtStart: Number(loadAtStart.toFixed(2)),
    },
    options: { ...options, keepData: undefined },
    sizes: scaleSizes(FULL_SIZES, options.scale),
    operations: {},
  };
  try {
    log(`Scratch folder: ${ctx.tmp}`);
    ctx.sqlitePristine = join(ctx.tmp, 'blog.sqlite');
    log(`Generating ${JSON.stringify(results.sizes)}...`);
    const { fixtures, seconds } = await generate({
      databaseUrl: `sqlite:${ctx.sqlitePristine}`,
      sizes: results.sizes,
      seed: SEED,
    });
    log(`  generated in ${seconds.toFixed(1)}s`);
    const tokens = {
      viewer: mintToken(ctx.secret, fixtures.viewerId),
      writer: mintToken(ctx.secret, fixtures.writerId),
    };
    const ops = graphqlOperations(fixtures).filter((op) => options.operations.includes(op.id));
    for (const op of ops) {
      const byContender = {};
      let reference = null;
      for (const { make, name } of CONTENDERS) {
        const run = await profileRun({ contender: make(ctx), op, ctx, tokens, options, reference });
        reference ??= run.answer;
        delete run.answer;
        byContender[name] = { connections: options.connections, ...run };
        printRun(name, op.id, run);
        if (run.sameBytesAsOurs === false)
          log(`    WARNING: ${name} answers other bytes than ours`);
      }
      results.operations[op.id] = byContender;
    }
  } finally {
    await cleanUp();
  }
  results.machine.loadAverageAtEnd = Number(loadavg()[0].toFixed(2));
  const { out } = options;
  mkdirSync(out, { recursive: true });
  const markdown = options.allocations ? allocationReport(results) : report(results);
  const name = options.allocations ? 'profile-allocations-latest' : 'profile-latest';
  writeFileSync(join(out, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(out, `${name}.md`), markdown);
  log();
  log(markdown);
}

await main();
