#!/usr/bin/env node
/**
 * The search round: `searchPosts` (see SEARCH_OPERATION_TITLES in operations.mjs) against our
 * service on a generated blog of 100,000 posts, on SQLite and on PostgreSQL, at 10 connections;
 * reports p50, p99 and req/s per operation and writes bench/results/search-latest.{json,md}.
 * Only the posts matter to search, so the other tables are kept small.
 *
 *   node bench/search.mjs [--search-posts 100000] [--duration 10] [--connections 10] [--no-pg]
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { oursPostgres, oursSqlite } from './contenders/ours.mjs';
import { generate } from './generate.mjs';
import { createDatabase, detectPostgres, dropDatabase } from './lib/databases.mjs';
import { problemOf, runLoad, sendOnce } from './lib/measure.mjs';
import { freePort, installCleanup } from './lib/processes.mjs';
import { SEARCH_OPERATION_TITLES, searchOperations } from './operations.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line = '') => console.log(line);

function parseCli(argv) {
  const options = { posts: 100_000, duration: 10, warmup: 3, connections: 10, pg: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const parsed = Number(argv[++i]);
      if (!Number.isFinite(parsed) || parsed <= 0)
        throw new Error(`${arg} needs a positive number`);
      return parsed;
    };
    if (arg === '--search-posts') options.posts = Math.round(value());
    else if (arg === '--duration') options.duration = value();
    else if (arg === '--warmup') options.warmup = value();
    else if (arg === '--connections') options.connections = Math.round(value());
    else if (arg === '--no-pg') options.pg = false;
    else throw new Error(`Unknown option ${arg}`);
  }
  return options;
}

async function measure(contender, ctx, options) {
  await contender.prepare();
  const server = await contender.start({ port: await freePort() });
  const figures = {};
  try {
    for (const op of searchOperations()) {
      const [answer] = await sendOnce(server.url, op, {});
      const problem = problemOf(answer);
      if (problem) throw new Error(`${contender.id} ${op.id}: ${problem}`);
      const edges = JSON.parse(answer.body).data.searchPosts.edges.length;
      const rounds = await runLoad({
        ctx,
        url: server.url,
        op,
        tokens: {},
        check: { kind: 'read', length: answer.body.length },
        rounds: [
          { name: 'warmup', connections: options.connections, duration: options.warmup },
          { name: 'latency', connections: options.connections, duration: options.duration },
        ],
      });
      const { latency } = rounds;
      const errors = latency.non2xx + latency.errors + latency.gqlErrors + latency.sizeMismatches;
      figures[op.id] = {
        edges,
        rps: latency.rps,
        p50: latency.p50,
        p99: latency.p99,
        max: latency.max,
        requests: latency.requests,
        errors,
      };
      log(
        `  ${contender.id} ${op.id}: p50 ${latency.p50?.toFixed(1)} ms, p99 ${latency.p99?.toFixed(1)} ms, ` +
          `${latency.rps.toFixed(0)} req/s @${options.connections}, ${errors} errors`,
      );
    }
  } finally {
    await server.stop();
    await contender.dispose();
  }
  return figures;
}

function report(results) {
  const lines = [
    '# Search round',
    '',
    `${results.posts.toLocaleString('en')} posts, ${results.connections} connections, ` +
      `${results.duration} s per operation after ${results.warmup} s of warm-up; ` +
      `${results.machine.cores} cores, load average ${results.machine.loadAverageAtStart} at start ` +
      `and ${results.machine.loadAverageAtEnd} at the end. Target: p99 < 50 ms.`,
    '',
    '| operation | database | p50 ms | p99 ms | req/s | errors |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ];
  for (const [database, figures] of Object.entries(results.databases)) {
    for (const [id, f] of Object.entries(figures)) {
      lines.push(
        `| ${id} ${SEARCH_OPERATION_TITLES[id]} | ${database} | ${f.p50.toFixed(1)} | ` +
          `${f.p99.toFixed(1)} | ${f.rps.toFixed(0)} | ${f.errors} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

async function main() {
  const options = parseCli(process.argv.slice(2));
  const loadAtStart = loadavg()[0];
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-if-needed.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const tmp = mkdtempSync(join(tmpdir(), 'blog-bench-search-'));
  const sizes = { users: 10_000, posts: options.posts, comments: 1000, likes: 1000, follows: 1000 };
  const ctx = { root: ROOT, tmp, secret: randomBytes(32).toString('hex') };
  const postgres = options.pg ? await detectPostgres() : null;
  const pgTemplate = `blog_bench_search_${process.pid}`;
  installCleanup(async () => {
    if (postgres && !postgres.unavailable) await dropDatabase(postgres, pgTemplate);
    rmSync(tmp, { recursive: true, force: true });
  });
  const results = {
    posts: options.posts,
    connections: options.connections,
    duration: options.duration,
    warmup: options.warmup,
    machine: { cores: cpus().length, loadAverageAtStart: Number(loadAtStart.toFixed(2)) },
    databases: {},
  };
  try {
    ctx.sqlitePristine = join(tmp, 'pristine.sqlite');
    log(`Generating ${options.posts} posts on SQLite...`);
    await generate({ databaseUrl: `sqlite:${ctx.sqlitePristine}`, sizes, log });
    results.databases.sqlite = await measure(oursSqlite(ctx), ctx, options);
    if (postgres && !postgres.unavailable) {
      Object.assign(ctx, { postgres, pgTemplate });
      await createDatabase(postgres, pgTemplate);
      log(`Generating ${options.posts} posts on PostgreSQL...`);
      await generate({ databaseUrl: postgres.url(pgTemplate), sizes, log });
      results.databases.postgres = await measure(oursPostgres(ctx), ctx, options);
    } else if (postgres?.unavailable) log(`PostgreSQL skipped: ${postgres.unavailable}`);
  } finally {
    if (postgres && !postgres.unavailable) await dropDatabase(postgres, pgTemplate);
    rmSync(tmp, { recursive: true, force: true });
  }
  results.machine.loadAverageAtEnd = Number(loadavg()[0].toFixed(2));
  const out = join(ROOT, 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'search-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  const markdown = report(results);
  writeFileSync(join(out, 'search-latest.md'), markdown);
  log();
  log(markdown);
}

await main();
