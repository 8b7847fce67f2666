#!/usr/bin/env node
/**
 * Two or more builds of the service (or the Mercurius contender) on the same operations, in
 * alternated rounds, each on a fresh server and a fresh copy of the data: for a change's A/B
 * figures on a shared, noisy machine, where only what is measured side by side compares.
 *
 *   node bench/compare.mjs --builds <dir>,<dir>[,mercurius] [--operations Q1,W1] [--rounds 4]
 *     [--duration 8] [--warmup 3] [--connections 100] [--scale 1] [--data <dir>] [--postgres]
 *     [--in-turn] [--instructions <warm-up>,<counted>]
 *
 * A build is a folder with the service's `package.json` and a built `dist/` (say, a copy of
 * `dist/` made before a change, beside a `package.json` and a link to `node_modules`); `.` is
 * this checkout. A build may carry settings after `@`, as `.@HTTP_MAX_REQUESTS_IN_FLIGHT=0`, so
 * that one build is compared with itself under two settings. `--postgres` runs the builds on
 * PostgreSQL (127.0.0.1:5432, a fresh copy of a generated database each round) instead of
 * SQLite; Mercurius runs on SQLite only. Each round starts the build as `npm run start:prod`
 * does (Node's options from its own `package.json`) with `--trace-gc`, warms it up, then loads
 * it and reports: requests a second and p99, CPU per request by thread (the main thread, V8's
 * helper threads, the rest) and the kernel's share of it, the young and full collections that
 * ran during the measured round, and the peak RSS. The medians per build and operation follow.
 * `--in-turn` runs the operations one after the other on one server per build and round, as the
 * full run does; the peak RSS after each (the server's high-water mark, from its start on) is
 * then the peak that builds up over several operations, which one operation alone on a fresh
 * server does not show.
 * `--data` keeps the generated blog for the next call, on PostgreSQL too (a database named
 * `blog_compare_keep_<scale>`, dropped by hand).
 * `--instructions 12000,2000` counts instructions instead of timing: each server runs under
 * valgrind's callgrind with `--single-threaded` (V8 compiles and collects on the main thread),
 * is sent the warm-up's requests one at a time, then the counted ones with counting on, and
 * reports the instructions a request took. The count does not depend on what else the machine
 * is doing, so a change of a few per cent shows on a noisy machine; one round usually suffices.
 * A warm-up of 3,000 requests is not enough: V8 is still compiling the request path then.
 */
import { spawnSync } from 'node:child_process';
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
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { mercurius } from './contenders/mercurius.mjs';
import { oursPostgres, oursSqlite } from './contenders/ours.mjs';
import { generate } from './generate.mjs';
import { FULL_SIZES, scaleSizes } from './lib/blog-plan.mjs';
import { ensureBuild } from './lib/build.mjs';
import {
  createDatabase,
  databaseExists,
  detectPostgres,
  dropDatabase,
  removeSqlite,
} from './lib/databases.mjs';
import { mintToken } from './lib/jwt.mjs';
import { median, problemOf, runLoad, sendOnce } from './lib/measure.mjs';
import { positiveNumber } from './lib/options.mjs';
import { cpuOfStat, fileSize, freePort, installCleanup, watchMemory } from './lib/processes.mjs';
import { graphqlOperations, OPERATION_IDS } from './operations.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line = '') => console.log(line);

function parseCli(argv) {
  const options = {
    builds: [buildOf('.')],
    operations: ['Q1'],
    rounds: 4,
    duration: 8,
    warmup: 3,
    connections: 100,
    scale: 1,
    data: null,
    instructions: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => positiveNumber(arg, argv[++i]);
    if (arg === '--builds') options.builds = argv[++i].split(',').filter(Boolean).map(buildOf);
    else if (arg === '--operations') options.operations = argv[++i].toUpperCase().split(',');
    else if (arg === '--rounds') options.rounds = value();
    else if (arg === '--duration') options.duration = value();
    else if (arg === '--warmup') options.warmup = value();
    else if (arg === '--connections') options.connections = value();
    else if (arg === '--scale') options.scale = value();
    else if (arg === '--data') options.data = resolve(argv[++i]);
    else if (arg === '--postgres') options.postgres = true;
    else if (arg === '--in-turn') options.inTurn = true;
    else if (arg === '--instructions') {
      const [warmup, counted] = (argv[++i] ?? '').split(',');
      options.instructions = {
        warmup: positiveNumber(arg, warmup),
        counted: positiveNumber(arg, counted),
      };
    } else throw new Error(`unknown option ${arg}; see the usage at the top of bench/compare.mjs`);
  }
  if (options.instructions && spawnSync('valgrind', ['--version']).status !== 0) {
    throw new Error('--instructions needs valgrind (Debian: apt-get install -y valgrind)');
  }
  const unknown = options.operations.filter((id) => !OPERATION_IDS.includes(id));
  if (unknown.length) throw new Error(`--operations takes ids among ${OPERATION_IDS.join(',')}`);
  for (const { dir } of options.builds) {
    if (dir === 'mercurius' && options.postgres) {
      throw new Error('Mercurius runs on SQLite only: leave out --postgres');
    }
    if (dir !== 'mercurius' && !existsSync(join(resolve(dir), 'dist/src/main.js'))) {
      throw new Error(`${dir} has no dist/src/main.js: build it, or copy a build there`);
    }
  }
  return options;
}

/**
 * A build as `--builds` names it (`name`), its folder and the settings given after its `@`s
 * (`dir@NAME=value@NAME=value`).
 */
function buildOf(name) {
  const [dir, ...settings] = name.split('@');
  const env = {};
  for (const setting of settings) {
    const at = setting.indexOf('=');
    if (at < 1) throw new Error(`${name}: a setting after @ reads NAME=value`);
    env[setting.slice(0, at)] = setting.slice(at + 1);
  }
  return { name, dir, env };
}

/** CPU ms of each thread of `pid` so far, by thread id, with the thread's name. */
function threadTimes(pid) {
  const threads = {};
  for (const id of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads[id] = cpuOfStat(readFileSync(`/proc/${pid}/task/${id}/stat`, 'utf8'));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/**
 * CPU ms per request of the main thread, V8's helper threads and the others, between two reads;
 * `system`: the kernel's share of the three together (system calls, and the loopback network's
 * work done in the server's time).
 */
function cpuPerRequest(before, after, requests) {
  const split = { main: 0, v8: 0, other: 0, system: 0 };
  for (const [id, { name, ms, systemMs }] of Object.entries(after)) {
    const spent = ms - (before[id]?.ms ?? 0);
    const kind = name === 'node-MainThread' ? 'main' : name === 'node-V8Worker' ? 'v8' : 'other';
    split[kind] += spent;
    split.system += systemMs - (before[id]?.systemMs ?? 0);
  }
  return Object.fromEntries(Object.entries(split).map(([kind, ms]) => [kind, ms / requests]));
}

/** The young and full collections that `--trace-gc` logged from byte `from` of the log on. */
function collectionsSince(logFile, from) {
  const text = readFileSync(logFile).subarray(from).toString('utf8');
  return {
    young: (text.match(/Scavenge|Minor Mark-Sweep/g) ?? []).length,
    full: (text.match(/Mark-Compact/g) ?? []).length,
  };
}

async function main() {
  const options = parseCli(process.argv.slice(2));
  const tmp = mkdtempSync(join(tmpdir(), 'blog-compare-'));
  installCleanup(async () => rmSync(tmp, { recursive: true, force: true }));
  // The servers' logs (tens of MB each with --trace-gc) go with it; `--data` is kept.
  try {
    await compare(options, tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The rounds of every build, in a scratch folder `tmp`, and their medians. */
async function compare(options, tmp) {
  ensureBuild(ROOT);
  const dataDir = options.data ?? tmp;
  mkdirSync(dataDir, { recursive: true });
  const pristine = join(dataDir, `compare-${options.scale}.sqlite`);
  const fixturesFile = join(dataDir, `compare-${options.scale}.json`);
  let fixtures =
    existsSync(pristine) && existsSync(fixturesFile)
      ? JSON.parse(readFileSync(fixturesFile, 'utf8'))
      : null;
  // A blog kept from before the generator wrote slugs and rendered content (issue 64) has no
  // P1 slug: it is made again, and so is the PostgreSQL one kept with it.
  const regenerate = !fixtures?.p1Slug;
  if (regenerate) {
    log(`Generating the blog (scale ${options.scale})...`);
    removeSqlite(pristine);
    const sizes = scaleSizes(FULL_SIZES, options.scale);
    ({ fixtures } = await generate({ databaseUrl: `sqlite:${pristine}`, sizes, seed: '42' }));
    writeFileSync(fixturesFile, JSON.stringify(fixtures));
  }
  let postgres = null;
  let pgTemplate = null;
  // With --data, the generated PostgreSQL blog is kept for the next call, as the SQLite file is.
  const keptPg = options.data && join(dataDir, `compare-${options.scale}.pg`);
  if (options.postgres) {
    postgres = await detectPostgres();
    if (postgres.unavailable) throw new Error(postgres.unavailable);
    const kept = keptPg && existsSync(keptPg) ? readFileSync(keptPg, 'utf8').trim() : null;
    if (kept && !regenerate && (await databaseExists(postgres, kept))) {
      pgTemplate = kept;
      log(`Using the PostgreSQL blog kept in ${pgTemplate}`);
    } else {
      pgTemplate = keptPg
        ? `blog_compare_keep_${String(options.scale).replace(/\W/g, '_')}`
        : `blog_compare_${process.pid}`;
      await dropDatabase(postgres, pgTemplate);
      await createDatabase(postgres, pgTemplate);
      log(`Generating the blog on PostgreSQL (scale ${options.scale})...`);
      const sizes = scaleSizes(FULL_SIZES, options.scale);
      const generated = await generate({
        databaseUrl: postgres.url(pgTemplate),
        sizes,
        seed: '42',
      });
      if (JSON.stringify(generated.fixtures) !== JSON.stringify(fixtures)) {
        throw new Error('The PostgreSQL data differs from the SQLite data (fixtures differ)');
      }
      if (keptPg) writeFileSync(keptPg, pgTemplate);
    }
  }
  try {
    await rounds(options, { tmp, pristine, fixtures, postgres, pgTemplate });
  } finally {
    if (pgTemplate && !keptPg) await dropDatabase(postgres, pgTemplate);
  }
}

/** The alternated rounds of {@link compare}, and their medians. */
async function rounds(options, { tmp, pristine, fixtures, postgres, pgTemplate }) {
  const secret = randomBytes(32).toString('hex');
  const tokens = {
    viewer: mintToken(secret, fixtures.viewerId),
    writer: mintToken(secret, fixtures.writerId),
  };
  const ops = graphqlOperations(fixtures).filter((op) => options.operations.includes(op.id));
  log(`Load average at the start: ${loadavg()[0].toFixed(2)}`);
  const results = {};
  for (let round = 1; round <= options.rounds; round++) {
    for (const { name: build, dir, env } of options.builds) {
      const root = dir === 'mercurius' ? ROOT : resolve(dir);
      const ctx = { root, tmp, secret, sqlitePristine: pristine, postgres, pgTemplate };
      const contender =
        dir === 'mercurius'
          ? mercurius(ctx)
          : postgres
            ? oursPostgres(ctx)
            : oursSqlite(ctx, { id: `round-${round}` });
      // One server for each operation, or one for them all in turn.
      for (const serverOps of options.inTurn ? [ops] : ops.map((op) => [op])) {
        await contender.prepare();
        const counting = options.instructions && callgrindLauncher(tmp);
        const handle = await contender.start({
          port: await freePort(),
          nodeArgs: counting ? ['--single-threaded'] : ['--trace-gc'],
          env,
          ...(counting && { launcher: counting.launcher, timeoutMs: 600_000 }),
        });
        try {
          for (const op of serverOps) {
            if (counting) {
              const row = await countInstructions(
                options.instructions,
                handle,
                op,
                tokens,
                counting,
              );
              (results[`${build} ${op.id}`] ??= []).push(row);
              log(
                `round ${round} ${build} ${op.id}: ${formatCount(row.instructions)} instructions a request`,
              );
              continue;
            }
            const row = await measureOne(options, { ctx, handle, op, tokens });
            (results[`${build} ${op.id}`] ??= []).push(row);
            const { cpu, gc } = row;
            log(
              `round ${round} ${build} ${op.id}: ${row.rps.toFixed(0)} req/s, p99 ${row.p99?.toFixed(1)} ms; ` +
                `CPU ms/req main ${cpu.main.toFixed(3)}, V8 helpers ${cpu.v8.toFixed(3)}, other ${cpu.other.toFixed(3)} ` +
                `(of all three, system ${cpu.system.toFixed(3)}); ` +
                `collections ${gc.young} young, ${gc.full} full; peak ${row.peakMb?.toFixed(0)} MB` +
                (row.errors ? `; ${row.errors} ERRORS` : ''),
            );
          }
        } finally {
          await handle.stop();
          await contender.dispose();
        }
      }
    }
  }
  log();
  log(`Medians (load average at the end: ${loadavg()[0].toFixed(2)})`);
  for (const [key, rows] of Object.entries(results)) {
    const m = (pick) => median(rows.map(pick));
    if (options.instructions) {
      const each = rows.map((r) => formatCount(r.instructions)).join(' / ');
      log(`${key}: ${formatCount(m((r) => r.instructions))} instructions a request (${each})`);
      continue;
    }
    log(
      `${key}: ${m((r) => r.rps).toFixed(0)} req/s (${rows.map((r) => r.rps.toFixed(0)).join(' / ')}), ` +
        `main CPU ${m((r) => r.cpu.main).toFixed(3)} ms/req, V8 helpers ${m((r) => r.cpu.v8).toFixed(3)}, ` +
        `system ${m((r) => r.cpu.system).toFixed(3)}, ` +
        `full collections ${rows.map((r) => r.gc.full).join(' / ')}, peak ${m((r) => r.peakMb ?? 0).toFixed(0)} MB`,
    );
  }
}

/**
 * One operation's warm-up and measured round on a running server: requests a second, p99, CPU
 * per request, collections, and the peak RSS (the server's high-water mark at the end of the
 * round).
 */
async function measureOne(options, { ctx, handle, op, tokens }) {
  await sendOnce(handle.url, op, tokens);
  const load = (name, duration) =>
    runLoad({
      ctx: { ...ctx, root: ROOT },
      url: handle.url,
      op,
      tokens,
      check: { kind: 'write' },
      rounds: [{ name, connections: options.connections, duration }],
    });
  await load('warmup', options.warmup);
  const memory = watchMemory(handle.pid);
  const logFrom = fileSize(handle.logFile) ?? 0;
  const threadsBefore = threadTimes(handle.pid);
  const { measured } = await load('measured', options.duration);
  return {
    rps: measured.rps,
    p99: measured.p99,
    errors: measured.non2xx + measured.timeouts + measured.gqlErrors,
    cpu: cpuPerRequest(threadsBefore, threadTimes(handle.pid), measured.requests),
    gc: collectionsSince(handle.logFile, logFrom),
    peakMb: memory.stop(),
  };
}

/** valgrind's callgrind, counting nothing until told to, writing its counts into `tmp`. */
function callgrindLauncher(tmp) {
  const dir = mkdtempSync(join(tmp, 'callgrind-'));
  return {
    dir,
    launcher: [
      'valgrind',
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${join(dir, 'callgrind.out')}`,
    ],
  };
}

/**
 * The instructions a request of `op` takes on a server under callgrind: `warmup` requests sent
 * one at a time, then `counted` more with counting on; their dump's total over `counted`.
 */
async function countInstructions({ warmup, counted }, handle, op, tokens, { dir }) {
  const send = async (n) => {
    for (let i = 0; i < n; i++) {
      const [answer] = await sendOnce(
        handle.url,
        { ...op, bodies: [op.bodies[i % op.bodies.length]] },
        tokens,
      );
      const problem = problemOf(answer);
      if (problem) throw new Error(`${handle.name} ${op.id}: ${problem}`);
    }
  };
  const control = (...args) => {
    const done = spawnSync('callgrind_control', [...args, String(handle.pid)], {
      encoding: 'utf8',
    });
    if (done.status !== 0) throw new Error(`callgrind_control ${args.join(' ')}: ${done.stderr}`);
  };
  await send(warmup);
  const before = new Set(readdirSync(dir));
  control('-z');
  control('-i', 'on');
  await send(counted);
  control('-i', 'off');
  control('-d');
  const dumps = readdirSync(dir).filter((name) => !before.has(name));
  const total = dumps.reduce((sum, name) => {
    // `totals:` is what the dump counted; its `summary:` line stays 0 after a zeroing.
    const totals = /^totals: (\d+)/m.exec(readFileSync(join(dir, name), 'utf8'));
    if (!totals) throw new Error(`callgrind's dump ${name} has no totals line`);
    return sum + Number(totals[1]);
  }, 0);
  if (!dumps.length) throw new Error('callgrind wrote no dump');
  if (total === 0) throw new Error('callgrind counted no instruction');
  return { instructions: total / counted };
}

const formatCount = (n) => Math.round(n).toLocaleString('en-US');

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error.stack ?? error);
    process.exit(1);
  },
);
