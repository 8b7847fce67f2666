#!/usr/bin/env node
/**
 * The interference round (issue 61): while one client sends the most expensive documents the
 * limits admit, how fast do `/health/live` and `{ __typename }` answer another client? Our
 * service, production build, on a generated blog of 20,000 tagged posts plus an attacker's
 * posts, on SQLite and then on PostgreSQL. Target: p99 of both probes under 50 ms, on both
 * databases, during every attack. Writes bench/results/interference-latest.{json,md}; see
 * bench/README.md, "The interference round".
 *
 *   node bench/interference.mjs [--posts 20000] [--duration 10] [--connections 4]
 *     [--probe-every 10] [--request-timeout 30] [--new-connections] [--no-pg] [--no-sqlite]
 *     [--data <dir>]
 *
 * With --data, the generated databases are kept (SQLite in <dir>, PostgreSQL as the database
 * blog_bench_interference_<version>_<posts>) and reused by the next run with the same --data.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { oursPostgres, oursSqlite } from './contenders/ours.mjs';
import { generate, sqliteTime } from './generate.mjs';
import { ensureBuild } from './lib/build.mjs';
import {
  createDatabase,
  databaseExists,
  detectPostgres,
  dropDatabase,
  removeSqlite,
} from './lib/databases.mjs';
import { positiveNumber } from './lib/options.mjs';
import { codesOf, outcomeOf, refusedBeforeRunning } from './lib/outcomes.mjs';
import { createRandom } from './lib/prng.mjs';
import { fileSize, freePort, installCleanup, memoryOf, tail, track } from './lib/processes.mjs';
import { DEFERS_SEARCH_INDEX, INDEX_ONE_POST } from './lib/search-index.mjs';

const require = createRequire(import.meta.url);
const { v7: uuidv7 } = require('uuid');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line = '') => console.log(line);

const SEED = 42;
/** Changes with what the round writes, so that kept data of another version is not reused. */
const DATA_VERSION = 'i3';
/** The target of issue 61: both probes answer within this at p99, during every attack. */
const TARGET_P99_MS = 50;
/**
 * The service tells clients apart by address (its admission queue takes each client's requests
 * in turn): the attacker and the prober come from two loopback addresses.
 */
const ATTACKER_ADDRESS = '127.0.0.1';
const PROBER_ADDRESS = '127.0.0.2';
/** A probe with no answer after this is an error (and counts with this latency). */
const PROBE_TIMEOUT_MS = 10_000;
/** After an attack, the server is settled when this many probes in a row answer under target. */
const SETTLED_PROBES = 5;
const SETTLE_MAX_S = 60;

/** Tags of the generated posts: 1 to 5 each, of TAG_COUNT, the tag of rank r drawn as 1/r. */
const TAG_COUNT = 100;
const tagOf = (rank) => `topic-${rank}`;

/**
 * The attacker's posts, as issue 61 made them: a signed-in user (a row written here; its reads
 * are anonymous) with 110 posts of 50,000 characters that repeat 16 short words, which make
 * one search for those words slow; and 100 posts whose snippet for SNIPPET_WORD is about
 * 170,000 characters: a 10,000-letter word that starts with SNIPPET_WORD, copied whole, then
 * 40,000 `<` that escaping makes 4 times longer (a service that reads only the start of a post
 * for search still finds the word).
 */
const ATTACK = {
  words: ['the', 'and', 'but', 'for', 'of', 'to', 'in', 'on', 'at', 'by'].concat([
    'we',
    'you',
    'it',
    'is',
    'be',
    'do',
  ]),
  longPosts: 110,
  snippetPosts: 100,
  snippetWord: 'zorblax',
  contentLength: 50_000,
  time: Date.UTC(2026, 5, 1),
};
/** Aliases of each attack as the issue sent it. */
const WRITTEN_ALIASES = 30;

const rotate = (items, by) => items.map((_, i) => items[(i + by) % items.length]);

/** `count` aliases of `field(alias index)`, as one query named `name`. */
const aliased = (name, count, field) =>
  JSON.stringify({
    query: `query ${name} { ${Array.from({ length: count }, (_, i) => `a${i}: ${field(i)}`).join(' ')} }`,
  });

/** The 16 words in pairs, each pair quoted: 8 phrases, that every long post has in a row. */
const pairsOf = (words) =>
  Array.from({ length: words.length / 2 }, (_, i) => `"${words[2 * i]} ${words[2 * i + 1]}"`).join(
    ' ',
  );

const LONG_POST_HITS = '{ edges { rank snippet node { id title } } }';

/**
 * The attacks of issue 61, each a document of `n` aliases of its expensive field. The searches
 * take the words in another order in each alias (the long posts repeat them in a cycle, so any
 * rotation still matches), so that no alias is the same search as another.
 */
const ATTACKS = [
  {
    id: 'A1',
    what: '`popularTags(first: 100) { edges { node { slug postsCount } } }`',
    body: (n) =>
      aliased(
        'PopularTags',
        n,
        () => 'popularTags(first: 100) { edges { node { slug postsCount } } }',
      ),
  },
  {
    id: 'A2',
    what:
      `\`searchPosts(query: "${ATTACK.words.join(' ')}", first: 100) ${LONG_POST_HITS}\`: ` +
      `the 16 words of the ${ATTACK.longPosts} long posts, as issue 61 searched them`,
    body: (n) =>
      aliased(
        'LongPostSearch',
        n,
        (i) =>
          `searchPosts(query: ${JSON.stringify(rotate(ATTACK.words, i).join(' '))}, first: 100) ` +
          LONG_POST_HITS,
      ),
  },
  {
    id: 'A3',
    what:
      `\`searchPosts(query: ${JSON.stringify(pairsOf(ATTACK.words))}, first: 100) ` +
      `${LONG_POST_HITS}\`: the same 16 words as 8 quoted pairs, for a service that caps a ` +
      'query at 8 terms',
    body: (n) =>
      aliased(
        'LongPostPhrases',
        n,
        (i) =>
          `searchPosts(query: ${JSON.stringify(pairsOf(rotate(ATTACK.words, i)))}, first: 100) ` +
          LONG_POST_HITS,
      ),
  },
  {
    id: 'A4',
    what:
      `\`postsConnection(tags: ["${tagOf(1)}", "${tagOf(2)}"]) { totalCount }\`, the second tag ` +
      `${tagOf(2)} to ${tagOf(WRITTEN_ALIASES + 1)}`,
    body: (n) =>
      aliased(
        'TagCounts',
        n,
        (i) => `postsConnection(tags: ["${tagOf(1)}", "${tagOf(i + 2)}"]) { totalCount }`,
      ),
  },
  {
    id: 'A5',
    what:
      `\`searchPosts(query: "${ATTACK.snippetWord}", first: 100) { edges { snippet node { id } } }\`: ` +
      `${ATTACK.snippetPosts} hits whose snippets, unbounded, are about 170,000 characters each`,
    body: (n) =>
      aliased(
        'LongSnippets',
        n,
        () =>
          `searchPosts(query: "${ATTACK.snippetWord}", first: 100) { edges { snippet node { id } } }`,
      ),
  },
];

function parseCli(argv) {
  const options = {
    posts: 20_000,
    duration: 10,
    connections: 4,
    probeEvery: 10,
    requestTimeout: 30,
    keepAlive: true,
    pg: true,
    sqlite: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => positiveNumber(arg, argv[++i]);
    if (arg === '--posts') options.posts = Math.round(value());
    else if (arg === '--duration') options.duration = value();
    else if (arg === '--connections') options.connections = Math.round(value());
    else if (arg === '--probe-every') options.probeEvery = value();
    else if (arg === '--request-timeout') options.requestTimeout = value();
    else if (arg === '--new-connections') options.keepAlive = false;
    else if (arg === '--no-pg') options.pg = false;
    else if (arg === '--no-sqlite') options.sqlite = false;
    else if (arg === '--data') options.data = resolve(argv[++i] ?? '');
    else throw new Error(`Unknown option ${arg}`);
  }
  return options;
}

/** Each post's tags: [postId, slug, position] rows, the same for the same posts. */
function tagRows(postIds) {
  const random = createRandom(`${SEED}:interference-tags`);
  const cumulative = [];
  let total = 0;
  for (let rank = 1; rank <= TAG_COUNT; rank++) cumulative.push((total += 1 / rank));
  const draw = () => {
    const target = random.next() * total;
    return cumulative.findIndex((sum) => sum > target) + 1;
  };
  const rows = [];
  for (const postId of [...postIds].sort()) {
    const ranks = new Set();
    for (let wanted = random.between(1, 5), guard = 0; ranks.size < wanted && guard < 50; guard++) {
      ranks.add(draw());
    }
    [...ranks].forEach((rank, position) => rows.push([postId, tagOf(rank), position]));
  }
  return rows;
}

/** The attacker's account and posts, as rows of the users and posts tables (times in ms). */
function attackRows() {
  const random = createRandom(`${SEED}:interference-attacker`);
  const id = (ms) => uuidv7({ msecs: ms, random: random.bytes(16) });
  const user = {
    id: id(ATTACK.time),
    name: 'Interference Attacker',
    email: 'interference_attacker@example.com',
    handle: 'interference_attacker',
    createdAt: ATTACK.time,
  };
  const unit = `${ATTACK.words.join(' ')} `;
  const repeated = unit.repeat(Math.ceil(ATTACK.contentLength / unit.length));
  const longContent = repeated.slice(0, ATTACK.contentLength).trimEnd();
  const word = `${ATTACK.snippetWord}${'x'.repeat(10_000 - ATTACK.snippetWord.length)}`;
  const snippetContent = `${word} ${'<'.repeat(ATTACK.contentLength - word.length - 1)}`;
  const posts = [];
  for (let i = 0; i < ATTACK.longPosts + ATTACK.snippetPosts; i++) {
    const at = ATTACK.time + (i + 1) * 1000;
    const long = i < ATTACK.longPosts;
    posts.push({
      id: id(at),
      title: long
        ? `${ATTACK.words.slice(0, 5).join(' ')} ${i + 1}`
        : `${ATTACK.snippetWord} ${i + 1}`,
      content: long ? longContent : snippetContent,
      createdAt: at,
    });
  }
  return { user, posts };
}

const USER_COLUMNS =
  '(id, name, email, handle, avatar, password_hash, role, created_at, updated_at)';
const POST_COLUMNS = '(id, title, content, author_id, created_at, updated_at, published_at)';
const NO_PASSWORD = 'not-a-password-hash:benchmark-users-cannot-log-in';

/**
 * Tags every generated post and adds the attacker's posts, directly in the database, as the
 * service would have written them: the tag counts follow from their triggers, and on SQLite each
 * new post's search index entry is written just after it (see lib/search-index.mjs).
 */
async function addAttackData(databaseUrl) {
  const { user, posts } = attackRows();
  if (databaseUrl.startsWith('sqlite:')) {
    const Database = require('better-sqlite3');
    const db = new Database(databaseUrl.slice('sqlite:'.length));
    try {
      const postIds = db
        .prepare('SELECT id FROM posts')
        .all()
        .map((row) => row.id);
      const insertTag = db.prepare(
        'INSERT INTO post_tags (post_id, slug, position) VALUES (?, ?, ?)',
      );
      const insertUser = db.prepare(
        `INSERT INTO users ${USER_COLUMNS} VALUES (?, ?, ?, ?, NULL, ?, 'user', ?, ?)`,
      );
      const insertPost = db.prepare(
        `INSERT INTO posts ${POST_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      const index = db.prepare(DEFERS_SEARCH_INDEX).get()
        ? INDEX_ONE_POST.map((sql) => db.prepare(sql))
        : [];
      db.transaction(() => {
        for (const row of tagRows(postIds)) insertTag.run(row);
        const created = sqliteTime(user.createdAt);
        insertUser.run(user.id, user.name, user.email, user.handle, NO_PASSWORD, created, created);
        for (const post of posts) {
          const at = sqliteTime(post.createdAt);
          insertPost.run(post.id, post.title, post.content, user.id, at, at, at);
          for (const statement of index) statement.run(post.id);
        }
      })();
    } finally {
      db.close();
    }
    return;
  }
  const { Client } = require('pg');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT id FROM posts');
    const tags = tagRows(rows.map((row) => row.id));
    await client.query('BEGIN');
    for (let i = 0; i < tags.length; i += 5_000) {
      const batch = tags.slice(i, i + 5_000);
      await client.query(
        'INSERT INTO post_tags (post_id, slug, position) ' +
          'SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::int[])',
        [0, 1, 2].map((column) => batch.map((row) => row[column])),
      );
    }
    const created = new Date(user.createdAt).toISOString();
    await client.query(
      `INSERT INTO users ${USER_COLUMNS} VALUES ($1, $2, $3, $4, NULL, $5, 'user', $6, $6)`,
      [user.id, user.name, user.email, user.handle, NO_PASSWORD, created],
    );
    for (const post of posts) {
      const at = new Date(post.createdAt).toISOString();
      await client.query(`INSERT INTO posts ${POST_COLUMNS} VALUES ($1, $2, $3, $4, $5, $5, $5)`, [
        post.id,
        post.title,
        post.content,
        user.id,
        at,
      ]);
    }
    await client.query('COMMIT');
    await client.query('VACUUM (ANALYZE)');
  } finally {
    await client.end();
  }
}

/** Runs one client of the round (bench/interference-worker.mjs) and returns its figures. */
async function runClient(ctx, name, plan) {
  const planFile = join(ctx.tmp, `${name}.json`);
  writeFileSync(planFile, JSON.stringify(plan));
  const budgetMs =
    plan.startAt -
    Date.now() +
    ((plan.warmupS ?? 0) + plan.durationS) * 1000 +
    plan.timeoutMs +
    30_000;
  const stdout = await new Promise((resolvePromise, reject) => {
    const child = execFile(
      process.execPath,
      [join(ctx.root, 'bench/interference-worker.mjs'), planFile],
      { cwd: ctx.root, timeout: budgetMs, maxBuffer: 16 * 1024 * 1024 },
      (error, out, err) =>
        error
          ? reject(
              new Error(`${name} failed (${error.signal ?? error.code}): ${error.message}\n${err}`),
            )
          : resolvePromise(out),
    );
    track(child);
  });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

/** A document sent once, as the attacker sends it: { status, text } or { error }. */
async function sendDocument(url, body, timeoutMs) {
  try {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { error: error.name === 'TimeoutError' ? 'timeout' : error.message };
  }
}

/**
 * The most aliases of `attack`, up to the written count, that the limits admit (that are not
 * refused before they run), what that document's answer was, and what refused one more alias.
 * Admitted documents run, so the search stops at the first.
 */
async function mostAdmitted(url, attack, timeoutMs) {
  let refusedAbove = null;
  for (let n = WRITTEN_ALIASES; n >= 1; n--) {
    const answer = await sendDocument(url, attack.body(n), timeoutMs);
    if (!refusedBeforeRunning(answer)) return { n, answer: outcomeOf(answer), refusedAbove };
    refusedAbove = codesOf(answer.text);
  }
  return { n: 0, answer: null, refusedAbove };
}

/** Waits until `/health/live` answers under target SETTLED_PROBES times in a row. */
async function settle(server) {
  const started = Date.now();
  let inARow = 0;
  while (Date.now() - started < SETTLE_MAX_S * 1000 && !server.exited) {
    const sent = performance.now();
    try {
      const response = await fetch(`${server.url}/health/live`, {
        signal: AbortSignal.timeout(5000),
      });
      await response.arrayBuffer();
      inARow = response.ok && performance.now() - sent < TARGET_P99_MS ? inARow + 1 : 0;
    } catch {
      inARow = 0;
    }
    if (inARow >= SETTLED_PROBES) return true;
    await new Promise((done) => setTimeout(done, 100));
  }
  return false;
}

/** The errors the server logged (pino's error and fatal) since byte `from`, with their counts. */
function serverErrorsIn(logFile, from) {
  const counts = {};
  let text = '';
  try {
    text = readFileSync(logFile).subarray(from).toString('utf8');
  } catch {
    return counts;
  }
  for (const line of text.split('\n')) {
    if (!/"level":(5\d|6\d|"error"|"fatal")/.test(line)) continue;
    let message = line.slice(0, 200);
    try {
      const entry = JSON.parse(line);
      message = [entry.err?.type, entry.err?.message ?? entry.msg].filter(Boolean).join(': ');
    } catch {
      // not JSON: the line itself
    }
    message = message.slice(0, 200);
    counts[message] = (counts[message] ?? 0) + 1;
  }
  return counts;
}

/**
 * One phase: the prober alone (`bodies` null: the idle baseline) or with the attacker sending
 * `bodies`, for the round's duration. Also the server's largest RSS and logged errors meanwhile.
 */
async function runPhase(ctx, server, options, { name, bodies, warmupS = 0 }) {
  const common = { url: server.url, startAt: Date.now() + 500, durationS: options.duration };
  const logFrom = fileSize(server.logFile);
  let peakRssMb = memoryOf(server.pid)?.rssMb ?? null;
  const sampler = setInterval(() => {
    const rss = memoryOf(server.pid)?.rssMb;
    if (rss) peakRssMb = Math.max(peakRssMb ?? 0, rss);
  }, 200);
  try {
    const [probes, attack] = await Promise.all([
      runClient(ctx, `${name}-probe`, {
        ...common,
        role: 'probe',
        localAddress: PROBER_ADDRESS,
        warmupS,
        everyMs: options.probeEvery,
        keepAlive: options.keepAlive,
        timeoutMs: PROBE_TIMEOUT_MS,
      }),
      bodies &&
        runClient(ctx, `${name}-attack`, {
          ...common,
          role: 'attack',
          localAddress: ATTACKER_ADDRESS,
          connections: options.connections,
          bodies,
          timeoutMs: options.requestTimeout * 1000,
        }),
    ]);
    return {
      probes,
      attack: attack?.bodies ?? null,
      peakRssMb: peakRssMb && Math.round(peakRssMb),
      serverErrors: serverErrorsIn(server.logFile, logFrom),
    };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * The phases of the round, once the aliases that the limits admit of each attack are known:
 * each attack as written, then cut down to what is admitted when that is fewer, then at once
 * every admitted one that answers with data (each connection starts at another).
 */
function phasesOf(admitted) {
  const phases = [];
  const mixed = [];
  for (const attack of ATTACKS) {
    const variant = (n) => ({ id: `${attack.id}×${n}`, body: attack.body(n) });
    phases.push({ id: `${attack.id}×${WRITTEN_ALIASES}`, bodies: [variant(WRITTEN_ALIASES)] });
    const { n, answer } = admitted[attack.id];
    if (n > 0 && n < WRITTEN_ALIASES)
      phases.push({ id: `${attack.id}×${n}`, bodies: [variant(n)] });
    if (n > 0 && answer.startsWith('data')) mixed.push(variant(n));
  }
  if (mixed.length > 1) phases.push({ id: 'all admitted', bodies: mixed });
  return phases;
}

async function measure(contender, ctx, options) {
  await contender.prepare();
  let starts = 0;
  const start = async () => contender.start({ port: await freePort(), suffix: `-${starts++}` });
  let server = await start();
  const figures = { admitted: {}, restarts: {}, idle: null, phases: [] };
  /** Restarts a server that died or stays slow; says why, or null when it is well. */
  const restartIfNeeded = async (after) => {
    const settled = !server.exited && (await settle(server));
    if (settled) return null;
    const why = server.exited
      ? `exited (${server.exited.code ?? server.exited.signal})`
      : `still slow ${SETTLE_MAX_S} s later: restarted`;
    log(`  ${contender.id}: after ${after} the server ${why}\n${tail(server.logFile, 5)}`);
    figures.restarts[after] = why;
    await server.stop();
    server = await start();
    return why;
  };
  try {
    for (const attack of ATTACKS) {
      figures.admitted[attack.id] = await mostAdmitted(
        server.url,
        attack,
        options.requestTimeout * 1000,
      );
      await restartIfNeeded(`finding how many aliases of ${attack.id} are admitted`);
    }
    for (const [id, { n, answer, refusedAbove }] of Object.entries(figures.admitted)) {
      const above = refusedAbove ? `, ${n + 1} refused: ${refusedAbove}` : '';
      log(`  ${contender.id} ${id}: ${n} aliases admitted (${answer})${above}`);
    }
    figures.idle = await runPhase(ctx, server, options, { name: 'idle', bodies: null, warmupS: 1 });
    logPhase(contender.id, 'idle', figures.idle);
    for (const { id, bodies } of phasesOf(figures.admitted)) {
      const phase = { id, ...(await runPhase(ctx, server, options, { name: id, bodies })) };
      logPhase(contender.id, id, phase);
      phase.serverExited = await restartIfNeeded(id);
      figures.phases.push(phase);
    }
  } finally {
    await server.stop();
    await contender.dispose();
  }
  return figures;
}

const ms = (value) => (value === null || value === undefined ? '-' : value.toFixed(1));
const probeCell = (p) =>
  `${ms(p.p50)} / ${ms(p.p99)} / ${ms(p.max)}${p.errors ? ` (${p.errors} errors)` : ''}`;
const outcomesCell = (outcomes) =>
  Object.entries(outcomes)
    .map(([outcome, count]) => `${count} ${outcome}`)
    .join('; ');
const meetsTarget = ({ probes }) =>
  probes.live.p99 <= TARGET_P99_MS &&
  probes.typename.p99 <= TARGET_P99_MS &&
  !probes.live.errors &&
  !probes.typename.errors;

function logPhase(contender, id, phase) {
  const attack = phase.attack
    ? Object.entries(phase.attack)
        .map(([body, f]) => ` | ${body}: ${outcomesCell(f.outcomes)}, p99 ${ms(f.p99)} ms`)
        .join('')
    : '';
  const { live, typename } = phase.probes;
  const firstError = live.firstError ?? typename.firstError;
  log(
    `  ${contender} ${id}: live ${probeCell(live)} ms, __typename ${probeCell(typename)} ms` +
      `${attack}${firstError ? ` | first probe error: ${firstError}` : ''}`,
  );
}

function report(results) {
  const { machine, options } = results;
  const lines = [
    '# Interference round',
    '',
    `${results.posts.toLocaleString('en')} generated posts tagged with 1 to 5 of ${TAG_COUNT} tags, ` +
      `plus the attacker's ${ATTACK.longPosts} posts of 50,000 characters repeating 16 short words ` +
      `and ${ATTACK.snippetPosts} posts whose unbounded snippets are 170,000 characters. Attacker: ` +
      `${options.connections} connections from ${ATTACKER_ADDRESS}, each sending its document again ` +
      `as soon as it is answered, for ${options.duration} s. Prober: from ${PROBER_ADDRESS}, ` +
      `\`GET /health/live\` and \`{ __typename }\` each every ${options.probeEvery} ms, one at a time, ` +
      `on ${options.keepAlive ? 'a kept-alive connection each' : 'a new connection each time'}; ` +
      'a probe that waits longer also counts the probes due meanwhile, each with the rest of ' +
      'its wait, so that a stall counts for its length. ' +
      `Target: p99 ≤ ${TARGET_P99_MS} ms for both probes. ` +
      `${machine.cores} cores, load average ${machine.loadAverageAtStart} at start and ` +
      `${machine.loadAverageAtEnd} at the end; Node ${results.node}, commit ${results.commit}.`,
    '',
    "| database | while | attacker's answers | attacker p50 / p99 ms | /health/live p50 / p99 / max ms | `{ __typename }` p50 / p99 / max ms | server RSS MB | p99 ≤ 50 ms |",
    '| --- | --- | --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const [database, figures] of Object.entries(results.databases)) {
    const row = (label, phase) => {
      const bodies = Object.entries(phase.attack ?? {});
      const answers = bodies
        .map(([id, f]) => `${bodies.length > 1 ? `${id}: ` : ''}${outcomesCell(f.outcomes)}`)
        .join('<br>');
      const latency = bodies
        .map(([id, f]) => `${bodies.length > 1 ? `${id}: ` : ''}${ms(f.p50)} / ${ms(f.p99)}`)
        .join('<br>');
      const exited = phase.serverExited ? `<br>server ${phase.serverExited}` : '';
      lines.push(
        `| ${database} | ${label} | ${answers || '-'}${exited} | ${latency || '-'} | ` +
          `${probeCell(phase.probes.live)} | ${probeCell(phase.probes.typename)} | ` +
          `${phase.peakRssMb ?? '-'} | ${meetsTarget(phase) ? 'yes' : 'no'} |`,
      );
    };
    row('nothing (idle)', figures.idle);
    for (const phase of figures.phases) row(phase.id, phase);
  }
  const busiest = Math.max(machine.loadAverageAtStart, machine.loadAverageAtEnd);
  if (busiest >= machine.cores) {
    lines.push(
      '',
      `The load average reached ${busiest} on ${machine.cores} cores: other work shared the ` +
        "machine, so these latencies are partly the machine's.",
    );
  }
  lines.push('', 'The attacks (×n: n aliases in one document):', '');
  for (const attack of ATTACKS) lines.push(`- ${attack.id}: ${attack.what}`);
  lines.push('', `The most aliases the limits admitted, of ${WRITTEN_ALIASES}:`, '');
  for (const [database, figures] of Object.entries(results.databases)) {
    const admitted = Object.entries(figures.admitted).map(
      ([id, { n, answer, refusedAbove }]) =>
        `${id} ${n} (${answer ?? 'none'}${refusedAbove ? `; ${n + 1} refused: ${refusedAbove}` : ''})`,
    );
    lines.push(`- ${database}: ${admitted.join(', ')}`);
  }
  const errors = [];
  for (const [database, figures] of Object.entries(results.databases)) {
    for (const phase of [figures.idle, ...figures.phases]) {
      for (const [message, count] of Object.entries(phase.serverErrors ?? {})) {
        errors.push(`- ${database}, ${phase.id ?? 'idle'}: ${count} × ${message}`);
      }
    }
  }
  if (errors.length > 0) lines.push('', 'Errors the server logged:', '', ...errors);
  const restarts = Object.entries(results.databases).flatMap(([database, figures]) =>
    Object.entries(figures.restarts).map(([after, why]) => `- ${database}, after ${after}: ${why}`),
  );
  if (restarts.length > 0) lines.push('', 'Servers restarted:', '', ...restarts);
  return `${lines.join('\n')}\n`;
}

function commitOf() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'unknown';
  }
}

async function main() {
  const options = parseCli(process.argv.slice(2));
  const loadAtStart = loadavg()[0];
  ensureBuild(ROOT);
  const tmp = mkdtempSync(join(tmpdir(), 'blog-bench-interference-'));
  const sizes = {
    users: Math.max(100, Math.round(options.posts / 10)),
    posts: options.posts,
    comments: 1000,
    likes: 1000,
    follows: 1000,
  };
  const ctx = { root: ROOT, tmp, secret: randomBytes(32).toString('hex') };
  const postgres = options.pg ? await detectPostgres() : null;
  const keep = options.data !== undefined;
  const dataName = `blog_bench_interference_${DATA_VERSION}_${options.posts}`;
  const pgTemplate = keep ? dataName : `blog_bench_interference_${process.pid}`;
  /** The service's copy of the data (see oursPostgres), and the data itself unless kept. */
  const dropDatabases = async () => {
    if (!postgres || postgres.unavailable) return;
    await dropDatabase(postgres, `${pgTemplate}_ours`);
    if (!keep) await dropDatabase(postgres, pgTemplate);
  };
  installCleanup(async () => {
    await dropDatabases();
    rmSync(tmp, { recursive: true, force: true });
  });
  const results = {
    posts: options.posts,
    options,
    node: process.version,
    commit: commitOf(),
    machine: { cores: cpus().length, loadAverageAtStart: Number(loadAtStart.toFixed(2)) },
    attacks: ATTACKS.map(({ id, what }) => ({ id, what, written: WRITTEN_ALIASES })),
    databases: {},
  };
  const fill = async (databaseUrl, label, discard) => {
    log(`Generating ${options.posts} posts and the attacker's on ${label}...`);
    try {
      // Untagged: addAttackData tags every post its own way.
      await generate({ databaseUrl, sizes, seed: SEED, tags: false, log });
      await addAttackData(databaseUrl);
    } catch (error) {
      // Half-filled kept data would be reused by the next run.
      await discard();
      throw error;
    }
  };
  try {
    if (keep) mkdirSync(options.data, { recursive: true });
    if (options.sqlite) {
      ctx.sqlitePristine = join(keep ? options.data : tmp, `${dataName}.sqlite`);
      if (!existsSync(ctx.sqlitePristine)) {
        await fill(`sqlite:${ctx.sqlitePristine}`, 'SQLite', async () =>
          removeSqlite(ctx.sqlitePristine),
        );
      } else log(`Reusing ${ctx.sqlitePristine}`);
      results.databases.sqlite = await measure(oursSqlite(ctx), ctx, options);
    }
    if (postgres && !postgres.unavailable) {
      Object.assign(ctx, { postgres, pgTemplate });
      if (!keep || !(await databaseExists(postgres, pgTemplate))) {
        await createDatabase(postgres, pgTemplate);
        await fill(postgres.url(pgTemplate), 'PostgreSQL', () =>
          dropDatabase(postgres, pgTemplate),
        );
      } else log(`Reusing the PostgreSQL database ${pgTemplate}`);
      results.databases.postgres = await measure(oursPostgres(ctx), ctx, options);
    } else if (postgres?.unavailable) log(`PostgreSQL skipped: ${postgres.unavailable}`);
  } finally {
    await dropDatabases();
    rmSync(tmp, { recursive: true, force: true });
  }
  results.machine.loadAverageAtEnd = Number(loadavg()[0].toFixed(2));
  const out = join(ROOT, 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'interference-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  const markdown = report(results);
  writeFileSync(join(out, 'interference-latest.md'), markdown);
  log();
  log(markdown);
}

await main();
