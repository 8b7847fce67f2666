#!/usr/bin/env node
/**
 * The PostgreSQL path of one statement, without GraphQL: Q1's statement (a post and its author,
 * by id) sent the ways a Node service can send it, at 10 at once, on a generated blog. It shows
 * what a request spends in TypeORM's query runner and in the pool, against the plain pg client
 * that PostGraphile uses, in the same run. See bench/README.md, "The PostgreSQL path".
 *
 *   node bench/pg-path.mjs [--duration 5] [--concurrency 10] [--scale 0.1]
 *
 * Per path: statements a second, and the Node process's CPU per statement (user + system), which
 * is what the service's one thread pays; PostgreSQL's own work is the same for every path.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { generate } from './generate.mjs';
import { FULL_SIZES, scaleSizes } from './lib/blog-plan.mjs';
import { ensureBuild } from './lib/build.mjs';
import { createDatabase, detectPostgres, dropDatabase } from './lib/databases.mjs';
import { positiveNumber } from './lib/options.mjs';
import { installCleanup } from './lib/processes.mjs';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line = '') => console.log(line);

/** Q1's statement exactly as the service sends it (postsSql.byIdWithAuthor, translated). */
function q1Statement() {
  const { postsSql } = require(join(ROOT, 'dist/src/blog/posts/posts.sql.js'));
  const { translate } = require(join(ROOT, 'dist/src/blog/common/sql/translate.js'));
  return translate(postsSql.byIdWithAuthor.text, 'postgres').text;
}

function parseCli(argv) {
  const options = { duration: 5, concurrency: 10, scale: 0.1 };
  for (let i = 0; i < argv.length; i++) {
    const value = positiveNumber(argv[i], argv[i + 1]);
    if (argv[i] === '--duration') options.duration = value;
    else if (argv[i] === '--concurrency') options.concurrency = Math.round(value);
    else if (argv[i] === '--scale') options.scale = value;
    else throw new Error(`Unknown option ${argv[i]}`);
    i++;
  }
  return options;
}

/** Runs `send` from `concurrency` loops for `seconds`; statements a second and CPU µs each. */
async function measure(send, { concurrency, duration }) {
  for (let i = 0; i < 200; i++) await send();
  let count = 0;
  const stopAt = Date.now() + duration * 1000;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < stopAt) {
        await send();
        count++;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { user, system } = process.cpuUsage(cpu);
  return { perSecond: count / seconds, cpuMicros: (user + system) / count };
}

/** The ways to send Q1: TypeORM's query runner, our path, and a pg pool of its own. */
async function paths(url, concurrency) {
  const { Pool } = require('pg');
  const { DataSource } = require('typeorm');
  const { loadDatabaseConfig } = require(join(ROOT, 'dist/src/config/database.config.js'));
  const { buildDataSourceOptions } = require(
    join(ROOT, 'dist/src/database/data-source-options.js'),
  );
  const config = loadDatabaseConfig({
    DATABASE_URL: url,
    DATABASE_LOGGING: 'false',
    DATABASE_POOL_SIZE: String(concurrency),
  });
  const dataSource = new DataSource(buildDataSourceOptions(config, {}));
  await dataSource.initialize();
  const typeormPool = dataSource.driver.master;
  const pool = new Pool({ connectionString: url, max: concurrency });
  const Q1 = q1Statement();
  const named = { name: 'q1', text: Q1 };
  return {
    list: [
      {
        id: 'typeorm',
        what: "TypeORM's dataSource.query: a query runner per statement, then the pool",
        send: (id) => dataSource.query(Q1, [id]),
      },
      {
        id: 'ours',
        what: "a named statement on TypeORM's pg pool (common/sql/runner.ts)",
        send: (id) => typeormPool.query({ ...named, values: [id] }),
      },
      {
        id: 'pg-pool',
        what: 'a pg Pool of our own, the same named statement',
        send: (id) => pool.query({ ...named, values: [id] }),
      },
      {
        id: 'pg-pool-unnamed',
        what: 'a pg Pool of our own, the statement unnamed (parsed each time)',
        send: (id) => pool.query(Q1, [id]),
      },
    ],
    async close() {
      await pool.end();
      await dataSource.destroy();
    },
  };
}

async function main() {
  const options = parseCli(process.argv.slice(2));
  ensureBuild(ROOT);
  const postgres = await detectPostgres();
  if (postgres.unavailable) throw new Error(postgres.unavailable);
  const database = `blog_bench_pgpath_${process.pid}`;
  installCleanup(() => dropDatabase(postgres, database));
  await createDatabase(postgres, database);
  const url = postgres.url(database);
  try {
    log(`Generating the blog at scale ${options.scale} on PostgreSQL ${postgres.version}...`);
    const { fixtures } = await generate({
      databaseUrl: url,
      sizes: scaleSizes(FULL_SIZES, options.scale),
    });
    const loadAtStart = loadavg()[0];
    const { list, close } = await paths(url, options.concurrency);
    const results = [];
    try {
      for (const path of list) {
        const send = () => path.send(fixtures.q1PostId);
        const rows = await path.send(fixtures.q1PostId);
        if ((rows.rows ?? rows).length !== 1) throw new Error(`${path.id}: not one row`);
        const figures = await measure(send, options);
        results.push({ id: path.id, what: path.what, ...figures });
        log(
          `  ${path.id}: ${figures.perSecond.toFixed(0)} statements/s, ` +
            `${figures.cpuMicros.toFixed(0)} µs of Node CPU each`,
        );
      }
    } finally {
      await close();
    }
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      postgres: postgres.version,
      cores: cpus().length,
      loadAverageAtStart: Number(loadAtStart.toFixed(2)),
      loadAverageAtEnd: Number(loadavg()[0].toFixed(2)),
      ...options,
      results,
    };
    const lines = [
      '# The PostgreSQL path of one statement',
      '',
      `Q1's statement at ${options.concurrency} at once for ${options.duration} s per path; ` +
        `Node ${report.node}, PostgreSQL ${report.postgres}, ${report.cores} cores, load average ` +
        `${report.loadAverageAtStart} at start and ${report.loadAverageAtEnd} at the end.`,
      '',
      '| path | statements/s | Node CPU µs each |',
      '| --- | ---: | ---: |',
      ...results.map(
        (r) => `| ${r.id}: ${r.what} | ${r.perSecond.toFixed(0)} | ${r.cpuMicros.toFixed(0)} |`,
      ),
    ];
    writeFileSync(join(ROOT, 'bench/results/pg-path-latest.md'), `${lines.join('\n')}\n`);
    writeFileSync(
      join(ROOT, 'bench/results/pg-path-latest.json'),
      `${JSON.stringify(report, null, 2)}\n`,
    );
    log(`\n${lines.join('\n')}`);
  } finally {
    await dropDatabase(postgres, database);
  }
}

await main();
