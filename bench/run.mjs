#!/usr/bin/env node
/**
 * The load benchmark: our service side by side with the physical ceiling, a plain Apollo
 * baseline, a Fastify + Mercurius + JIT baseline, and (with PostgreSQL) our service on
 * PostgreSQL, PostGraphile 4 and PostGraphile 5, on the same generated blog; the framework
 * floor (NestJS, Apollo and TypeORM with one query) on both databases; and the cold start of
 * each server. See bench/README.md.
 *
 *   npm run bench [-- --small] [-- --help]
 */
import { execFileSync, execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { baseline } from './contenders/baseline.mjs';
import { ceiling } from './contenders/ceiling.mjs';
import { floorOperations, floorPostgres, floorSqlite } from './contenders/floor.mjs';
import { mercurius } from './contenders/mercurius.mjs';
import { oursPostgres, oursSqlite } from './contenders/ours.mjs';
import { postgraphile } from './contenders/postgraphile.mjs';
import { postgraphile5 } from './contenders/postgraphile5.mjs';
import { generate } from './generate.mjs';
import { scaleSizes } from './lib/blog-plan.mjs';
import { ensureBuild } from './lib/build.mjs';
import { benchContender, throughputPass } from './lib/contest.mjs';
import { createDatabase, detectPostgres, dropDatabase } from './lib/databases.mjs';
import { mintToken } from './lib/jwt.mjs';
import { growthPoints, parseOptions, USAGE } from './lib/options.mjs';
import { installCleanup } from './lib/processes.mjs';
import {
  graphqlOperations,
  postgraphile5Operations,
  postgraphileOperations,
} from './operations.mjs';
import { buildResults, POSTGRES_CONTENDERS, printSummary, writeReports } from './report.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line = '') => console.log(line);

/**
 * Installs a PostGraphile's own dependencies in its folder (bench/peers for 4, bench/peers5
 * for 5) on first use.
 */
function ensurePeers(folder) {
  const peers = join(ROOT, 'bench', folder);
  if (existsSync(join(peers, 'node_modules/postgraphile/package.json'))) return;
  const command = existsSync(join(peers, 'package-lock.json')) ? 'ci' : 'install';
  log(`  installing PostGraphile in bench/${folder} (npm ${command})...`);
  execFileSync('npm', [command, '--prefix', peers, '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
}

function machine(postgres, loadAtStart) {
  const cpu = cpus();
  return {
    loadAverageAtStart: Number(loadAtStart.toFixed(2)),
    cores: cpu.length,
    cpu: cpu[0]?.model?.trim() ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    os: `${process.platform} ${release()}`,
    postgres: postgres?.version ?? null,
  };
}

function gitCommit() {
  try {
    const commit = execSync('git rev-parse --short HEAD', {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return commit.toString().trim();
  } catch {
    return null;
  }
}

const wanted = (options, id) => id === 'ours-sqlite' || !options.only || options.only.has(id);
const withoutAnswers = ({ answers: _answers, ...rest }) => rest;

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    log(USAGE);
    return;
  }
  const started = Date.now();
  const loadAtStart = loadavg()[0];
  const ctx = {
    root: ROOT,
    tmp: mkdtempSync(join(tmpdir(), 'blog-bench-')),
    secret: randomBytes(36).toString('base64url'),
    sqlitePristine: null,
    postgres: null,
    pgTemplate: null,
  };
  const cleanups = [];
  const cleanUp = async () => {
    while (cleanups.length) {
      const step = cleanups.pop();
      await step().catch(() => {});
    }
  };
  installCleanup(cleanUp);
  // Runs last: the scratch folder with the databases and logs.
  cleanups.push(async () => {
    if (options.keepData) log(`Kept ${ctx.tmp}`);
    else rmSync(ctx.tmp, { recursive: true, force: true });
  });
  const skipped = [];
  const notes = [];
  try {
    log(
      `Blog service load benchmark (${options.mode}): ${options.duration}s rounds, ${options.warmup}s warm-up`,
    );
    log(`Scratch folder: ${ctx.tmp}`);
    if (loadAtStart > cpus().length / 2) {
      const warning = `The machine was busy when the run started (load average ${loadAtStart.toFixed(1)} on ${cpus().length} cores): other processes compete with the servers and the load generator, so the figures are low and noisy.`;
      notes.push(warning);
      log(`WARNING: ${warning}`);
    }
    log('\n[1/7] Build');
    ensureBuild(ROOT);

    log('\n[2/7] Data');
    ctx.sqlitePristine = join(ctx.tmp, 'blog.sqlite');
    log(`  SQLite: ${JSON.stringify(options.sizes)}`);
    const sqliteData = await generate({
      databaseUrl: `sqlite:${ctx.sqlitePristine}`,
      sizes: options.sizes,
      seed: options.seed,
      log,
    });
    log(`  generated in ${sqliteData.seconds.toFixed(1)}s`);
    const { fixtures } = sqliteData;
    const data = {
      sizes: options.sizes,
      counts: sqliteData.counts,
      drafts: fixtures.drafts,
      viewerFollows: fixtures.viewerFollows,
      seconds: { sqlite: sqliteData.seconds },
    };

    const pgWanted = options.pg && POSTGRES_CONTENDERS.some((id) => wanted(options, id));
    if (pgWanted) {
      const postgres = await detectPostgres();
      if (postgres.unavailable) {
        for (const id of POSTGRES_CONTENDERS.filter((id) => wanted(options, id))) {
          skipped.push({ id, reason: postgres.unavailable });
        }
        log(`  PostgreSQL contenders will be skipped: ${postgres.unavailable}`);
      } else {
        ctx.postgres = postgres;
        ctx.pgTemplate = `blog_bench_${process.pid}`;
        await createDatabase(postgres, ctx.pgTemplate);
        cleanups.push(() => dropDatabase(postgres, ctx.pgTemplate));
        log(`  PostgreSQL ${postgres.version} (user ${postgres.user}), database ${ctx.pgTemplate}`);
        const pgData = await generate({
          databaseUrl: postgres.url(ctx.pgTemplate),
          sizes: options.sizes,
          seed: options.seed,
          log,
        });
        data.seconds.postgres = pgData.seconds;
        log(`  generated in ${pgData.seconds.toFixed(1)}s`);
        if (JSON.stringify(pgData.fixtures) !== JSON.stringify(fixtures)) {
          throw new Error('The PostgreSQL data differs from the SQLite data (fixtures differ)');
        }
      }
    } else if (!options.pg) {
      notes.push('PostgreSQL contenders not run (--no-pg).');
    }

    const tokens = {
      viewer: mintToken(ctx.secret, fixtures.viewerId),
      writer: mintToken(ctx.secret, fixtures.writerId),
    };
    const ops = graphqlOperations(fixtures);
    const contenders = [];
    /** What the throughput passes after the first run again, in the order of the first. */
    const passes = [];
    const bench = async (contender, contenderOps, reference) => {
      log(`\n  ${contender.label}`);
      const result = await benchContender({
        contender,
        ops: contenderOps,
        tokens,
        reference,
        options,
        ctx,
        log,
      });
      if (result.status === 'skipped') log(`    SKIPPED: ${result.reason}`);
      const kept = withoutAnswers(result);
      contenders.push(kept);
      passes.push({ contender, ops: contenderOps, result: kept });
      return result;
    };

    log('\n[3/7] Our service and the ceiling (SQLite)');
    const ours = await bench(oursSqlite(ctx), ops, null);
    if (ours.status !== 'ok' || Object.keys(ours.answers).length < ops.length) {
      throw new Error(
        `Our service must answer every operation to serve as the reference: ${ours.reason ?? JSON.stringify(ours.ops)}`,
      );
    }
    const reference = ours.answers;
    if (wanted(options, 'ceiling')) {
      const canned = Object.fromEntries(ops.map((op) => [op.id, reference[op.id][0].body]));
      await bench(ceiling(ctx, canned), ops, reference);
    }

    log('\n[4/7] Plain Apollo and Mercurius + JIT baselines, and the framework floor (SQLite)');
    if (wanted(options, 'apollo')) await bench(baseline(ctx), ops, reference);
    if (wanted(options, 'mercurius')) await bench(mercurius(ctx), ops, reference);
    if (wanted(options, 'floor-sqlite')) {
      await bench(floorSqlite(ctx), floorOperations(ops), reference);
    }

    log('\n[5/7] Growth of the feed (Q2) with the data');
    // Every point is measured the same way: fresh servers running Q2 only.
    const growth = [];
    if (options.growth) {
      for (const posts of growthPoints(options)) {
        const main = posts === options.sizes.posts;
        const sizes = main ? options.sizes : scaleSizes(options.sizes, posts / options.sizes.posts);
        const file = main ? ctx.sqlitePristine : join(ctx.tmp, `growth-${posts}.sqlite`);
        log(`  ${posts} posts: ${JSON.stringify(sizes)}`);
        const pointFixtures = main
          ? fixtures
          : (await generate({ databaseUrl: `sqlite:${file}`, sizes, seed: options.seed })).fixtures;
        const q2 = graphqlOperations(pointFixtures).filter((op) => op.id === 'Q2');
        const growthTokens = { viewer: mintToken(ctx.secret, pointFixtures.viewerId) };
        const point = { posts, users: sizes.users, results: {} };
        const runs = [oursSqlite(ctx, { id: `ours-sqlite-${posts}`, pristine: file })];
        if (wanted(options, 'apollo')) {
          runs.push(baseline(ctx, { id: `apollo-${posts}`, pristine: file }));
        }
        let growthReference = null;
        for (const contender of runs) {
          log(`\n  ${contender.label}, ${posts} posts`);
          const result = await benchContender({
            contender: { ...contender, statementPattern: null, coldStartQuery: null },
            ops: q2,
            tokens: growthTokens,
            reference: growthReference,
            options,
            ctx,
            log,
          });
          growthReference ??= result.answers;
          point.results[contender.id.replace(`-${posts}`, '')] = summariseQ2(result);
        }
        if (!main) rmSync(file, { force: true });
        growth.push(point);
      }
    }

    log('\n[6/7] PostgreSQL: our service, PostGraphile 4 and 5, and the framework floor');
    if (ctx.postgres) {
      if (wanted(options, 'ours-pg')) await bench(oursPostgres(ctx), ops, reference);
      const graphiles = [
        { contender: postgraphile(ctx), folder: 'peers', ops: postgraphileOperations },
        { contender: postgraphile5(ctx), folder: 'peers5', ops: postgraphile5Operations },
      ];
      for (const { contender, folder, ops: operationsFor } of graphiles) {
        if (!wanted(options, contender.id)) continue;
        try {
          ensurePeers(folder);
          await bench(contender, operationsFor(fixtures), reference);
        } catch (error) {
          skipped.push({ id: contender.id, reason: `could not install or run: ${error.message}` });
          log(`    SKIPPED ${contender.label}: ${error.message}`);
        }
      }
      if (wanted(options, 'floor-pg')) {
        await bench(floorPostgres(ctx), floorOperations(ops), reference);
      }
    } else {
      log(`  skipped: ${skipped[0]?.reason ?? 'not requested'}`);
    }

    log(`\n[7/7] The other throughput passes (${options.passes} passes in all)`);
    // The machine's speed drifts over a run: each pass after the first runs the contenders in
    // the other order (the last of the first pass first), and each keeps its best round.
    if (options.passes < 2) log('  none (--passes 1)');
    for (let pass = 2; pass <= options.passes; pass++) {
      const order = pass % 2 === 0 ? [...passes].reverse() : passes;
      for (const { contender, ops: contenderOps, result } of order) {
        await throughputPass({
          contender,
          ops: contenderOps,
          tokens,
          result,
          pass,
          options,
          ctx,
          log,
        });
      }
    }

    const results = buildResults({
      options,
      machine: machine(ctx.postgres, loadAtStart),
      commit: gitCommit(),
      data,
      contenders,
      skipped,
      growth,
      notes,
      seconds: (Date.now() - started) / 1000,
    });
    printSummary(results, log);
    const out = options.out ?? join(ROOT, 'bench/results');
    mkdirSync(out, { recursive: true });
    const files = writeReports(results, out, [
      [ctx.tmp, '<scratch>'],
      [ROOT, '.'],
    ]);
    log(`\nWrote ${files.join(' and ')} (${((Date.now() - started) / 1000).toFixed(0)}s in all)`);
  } finally {
    await cleanUp();
  }
}

function summariseQ2(result) {
  const q2 = result.ops.Q2;
  if (result.status !== 'ok' || q2?.status !== 'ok')
    return { status: 'failed', reason: result.reason ?? q2?.reason };
  return {
    status: 'ok',
    rps: q2.rps,
    throughputP99: q2.throughputP99,
    throughputMax: q2.throughputMax,
    p50: q2.p50,
    p99: q2.p99,
    errors: q2.errors,
    errorsByKind: q2.errorsByKind,
    responseBytes: q2.responseBytes,
    sameAsOurs: q2.sameAsOurs,
  };
}

main().catch((error) => {
  console.error(`\nBenchmark failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
