#!/usr/bin/env node
/**
 * The fan-out round: an author with many followers publishes, and another client's reads are
 * timed while the followers' notifications are written (issue 62: 500,000 followers on
 * PostgreSQL, 200,000 on SQLite). Reports how long the fan-out took, and p50, p99 and max of
 * `GET /health/live` and of a page of posts from a second client, idle and during the fan-out.
 *
 *   node bench/fan-out.mjs [--sqlite-followers 200000] [--pg-followers 500000] [--no-pg]
 *
 * Runs the built service (npm run build) in production mode on a fresh database of each kind;
 * the followers are written straight to the database, the publication goes through the API.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startEnvironment, startOptions } from '../scripts/start-command.cjs';
import { ensureBuild } from './lib/build.mjs';
import { createDatabase, detectPostgres, dropDatabase } from './lib/databases.mjs';
import { latencySummary as summary } from './lib/latency.mjs';
import { positiveNumber } from './lib/options.mjs';
import { freePort, installCleanup, startServer } from './lib/processes.mjs';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line = '') => console.log(line);

const PAGE = JSON.stringify({ query: '{ posts(first: 10) { id title author { name } } }' });
const PROBE_GAP_MS = 10;
const FAN_OUT_LIMIT_MS = 15 * 60_000;

function parseCli(argv) {
  const options = { sqliteFollowers: 200_000, pgFollowers: 500_000, pg: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--sqlite-followers') options.sqliteFollowers = positiveNumber(arg, argv[++i]);
    else if (arg === '--pg-followers') options.pgFollowers = positiveNumber(arg, argv[++i]);
    else if (arg === '--no-pg') options.pg = false;
    else throw new Error(`unknown option ${arg}; see the comment at the top of bench/fan-out.mjs`);
  }
  return options;
}

/** Followers of `authorId` as SQL: `count` users copied from the author, and their follows. */
function followersSql(dialect, authorId, count) {
  if (dialect === 'postgres') {
    const id = "'00000000-0000-7000-8000-' || lpad(to_hex(n), 12, '0')";
    return [
      'INSERT INTO users (id, name, email, handle, password_hash, role, token_version, created_at, updated_at) ' +
        `SELECT ${id}, 'Follower ' || n, 'f' || n || '@fan.example', 'f_' || n, u.password_hash, 'user', 0, now(), now() ` +
        `FROM generate_series(1, ${count}) n, users u WHERE u.id = '${authorId}'`,
      'INSERT INTO follows (follower_id, followee_id, created_at) ' +
        `SELECT ${id}, '${authorId}', now() FROM generate_series(1, ${count}) n`,
    ];
  }
  const id = "printf('00000000-0000-7000-8000-%012x', n)";
  const series = `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${count})`;
  return [
    `${series} INSERT INTO users (id, name, email, handle, password_hash, role, token_version, created_at, updated_at) ` +
      `SELECT ${id}, 'Follower ' || n, 'f' || n || '@fan.example', 'f_' || n, u.password_hash, 'user', 0, u.created_at, u.updated_at ` +
      `FROM s, users u WHERE u.id = '${authorId}'`,
    `${series} INSERT INTO follows (follower_id, followee_id, created_at) SELECT ${id}, '${authorId}', u.created_at FROM s, users u WHERE u.id = '${authorId}'`,
  ];
}

/** A connection to the database for the script's own statements. */
async function openDatabase(dialect, url) {
  if (dialect === 'postgres') {
    const { Client } = require('pg');
    const client = new Client({ connectionString: url });
    await client.connect();
    return {
      run: (text) => client.query(text),
      count: async (text) => Number((await client.query(text)).rows[0].n),
      close: () => client.end(),
    };
  }
  const Database = require('better-sqlite3');
  const db = new Database(url.slice('sqlite:'.length), { timeout: 30_000 });
  return {
    run: async (text) => db.prepare(text).run(),
    count: async (text) => Number(db.prepare(text).get().n),
    close: async () => db.close(),
  };
}

async function gql(url, body, token) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (json.errors) throw new Error(JSON.stringify(json.errors));
  return json.data;
}

/** Probes the server one request after another until `until()` says stop; their latencies. */
async function probe(url, until) {
  const live = [];
  const page = [];
  while (!until()) {
    let start = performance.now();
    await fetch(`${url}/health/live`).then((r) => r.arrayBuffer());
    live.push(performance.now() - start);
    start = performance.now();
    await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: PAGE,
    }).then((r) => r.arrayBuffer());
    page.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
  }
  return { live: summary(live), page: summary(page) };
}

async function round(dialect, databaseUrl, followers, tmp) {
  const port = await freePort();
  const secret = randomBytes(32).toString('hex');
  const server = await startServer({
    name: `fan-out-${dialect}`,
    args: [...startOptions(ROOT), join(ROOT, 'dist/src/main.js')],
    cwd: ROOT,
    port,
    logFile: join(tmp, `fan-out-${dialect}.log`),
    env: {
      ...startEnvironment(ROOT),
      NODE_ENV: 'production',
      JWT_SECRET: secret,
      DATABASE_URL: databaseUrl,
      REDIS_URL: '',
      SEED_DEMO: 'false',
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      PORT: String(port),
    },
  });
  const db = await openDatabase(dialect, databaseUrl);
  try {
    const { signUp } = await gql(server.url, {
      query: 'mutation ($input: SignUpInput!) { signUp(input: $input) { token user { id } } }',
      variables: {
        input: { name: 'Popular', email: 'popular@fan.example', password: 'a long passphrase' },
      },
    });
    const authorId = signUp.user.id;
    let started = performance.now();
    for (const text of followersSql(dialect, authorId, followers)) await db.run(text);
    log(
      `  ${followers} followers written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    let stop = false;
    const idleProbe = probe(server.url, () => stop);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    stop = true;
    const idle = await idleProbe;

    let done = false;
    const busyProbe = probe(server.url, () => done);
    started = performance.now();
    await gql(
      server.url,
      {
        query: 'mutation ($input: CreatePostInput!) { createPost(input: $input) { id } }',
        variables: { input: { title: 'For everyone', content: 'News', publish: true } },
      },
      signUp.token,
    );
    const deadline = Date.now() + FAN_OUT_LIMIT_MS;
    while (Date.now() < deadline) {
      if ((await db.count('SELECT COUNT(*) AS n FROM publication_fan_outs')) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const fanOutMs = performance.now() - started;
    done = true;
    const busy = await busyProbe;
    const written = await db.count(
      "SELECT COUNT(*) AS n FROM notifications WHERE kind = 'FOLLOWEE_PUBLISHED'",
    );
    return {
      dialect,
      followers,
      written,
      fanOutS: Number((fanOutMs / 1000).toFixed(1)),
      idle,
      busy,
    };
  } finally {
    await db.close();
    await server.stop();
  }
}

async function main() {
  const options = parseCli(process.argv.slice(2));
  installCleanup();
  ensureBuild(ROOT);
  const tmp = mkdtempSync(join(tmpdir(), 'blog-fan-out-'));
  const load = loadavg()[0];
  const results = [];
  try {
    log(`Fan-out round (load average ${load.toFixed(2)} at start, Node ${process.version})`);
    log(`SQLite, ${options.sqliteFollowers} followers`);
    results.push(
      await round('sqlite', `sqlite:${join(tmp, 'fan-out.sqlite')}`, options.sqliteFollowers, tmp),
    );
    const postgres = options.pg ? await detectPostgres() : null;
    if (postgres) {
      const name = `blog_bench_fan_out_${process.pid}`;
      await createDatabase(postgres, name);
      try {
        log(`PostgreSQL, ${options.pgFollowers} followers`);
        results.push(await round('postgres', postgres.url(name), options.pgFollowers, tmp));
      } finally {
        await dropDatabase(postgres, name);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  log();
  log(
    '| database | followers | written | fan-out s | live p50/p99/max ms (idle → during) | posts page p50/p99/max ms (idle → during) |',
  );
  log('|---|---:|---:|---:|---|---|');
  for (const r of results) {
    const f = (s) => `${s.p50}/${s.p99}/${s.max}`;
    log(
      `| ${r.dialect} | ${r.followers} | ${r.written} | ${r.fanOutS} | ${f(r.idle.live)} → ${f(r.busy.live)} (n=${r.busy.live.count}) | ${f(r.idle.page)} → ${f(r.busy.page)} |`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
