#!/usr/bin/env node
/**
 * The search round: `searchPosts` against our service on a generated blog of 100,000 posts, on
 * SQLite and on PostgreSQL, at 10 connections. The posts' words follow Zipf's law over a
 * vocabulary of 20,000 words, as real prose does, and the queries are chosen from that
 * vocabulary as users search (see bench/README.md, "The search round"). Reports, per query,
 * the posts it matches, p50, p99 and req/s, and writes bench/results/search-latest.{json,md}.
 * Only the posts matter to search, so the other tables are kept small.
 *
 *   node bench/search.mjs [--search-posts 100000] [--duration 10] [--warmup 3]
 *     [--connections 10] [--no-pg] [--data <dir>]
 *
 * With --data, the generated databases are kept (SQLite in <dir>, PostgreSQL as the database
 * blog_bench_search_<version>_<posts>) and reused by the next run with the same --data.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { oursPostgres, oursSqlite } from './contenders/ours.mjs';
import { generate } from './generate.mjs';
import { planBlog } from './lib/blog-plan.mjs';
import { ensureBuild } from './lib/build.mjs';
import { createDatabase, detectPostgres, dropDatabase, removeSqlite } from './lib/databases.mjs';
import { problemOf, runLoad, sendOnce } from './lib/measure.mjs';
import { positiveNumber } from './lib/options.mjs';
import { createRandom } from './lib/prng.mjs';
import { freePort, installCleanup } from './lib/processes.mjs';
import { zipfText, zipfVocabulary } from './lib/text.mjs';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line = '') => console.log(line);

const SEED = 42;
const VOCABULARY_SIZE = 20_000;
/** Changes with what the generator writes, so that kept data of another version is not reused. */
const DATA_VERSION = 'z4';

/**
 * The ranks (1 = the most frequent word) the queries are made of. Mid-frequency words are those
 * a reader types to find a post: each is in 1 to 4 % of the posts. Rank 100 is a common word,
 * in about a sixth of the posts: the worst case.
 */
const RANKS = { pair: [500, 1000], typed: 700, typing: 1300, phrase: [200, 5000], common: 100 };
/** The letters typed so far of the word being typed. */
const TYPED_LETTERS = 3;
/** The letters typed so far of the first word: the shortest prefix that is searched. */
const FIRST_LETTERS = 2;

const SEARCH_QUERY =
  'query S($query: String!) { searchPosts(query: $query, first: 20) { ' +
  'edges { rank snippet node { id title publishedAt author { name handle } } } ' +
  'pageInfo { hasNextPage endCursor } } }';

function parseCli(argv) {
  const options = {
    posts: 100_000,
    duration: 10,
    warmup: 3,
    connections: 10,
    pg: true,
    sqlite: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => positiveNumber(arg, argv[++i]);
    if (arg === '--search-posts') options.posts = Math.round(value());
    else if (arg === '--duration') options.duration = value();
    else if (arg === '--warmup') options.warmup = value();
    else if (arg === '--connections') options.connections = Math.round(value());
    else if (arg === '--no-pg') options.pg = false;
    else if (arg === '--no-sqlite') options.sqlite = false;
    else if (arg === '--data') options.data = resolve(argv[++i] ?? '');
    else throw new Error(`Unknown option ${arg}`);
  }
  return options;
}

/** The posts' vocabulary, most frequent first, and the text the posts are written with. */
function searchText() {
  const vocabulary = zipfVocabulary(createRandom(`${SEED}:search-vocabulary`), VOCABULARY_SIZE);
  return { vocabulary, text: zipfText(vocabulary) };
}

/**
 * A phrase as a reader quotes it from a post they remember: the first two words in a row of a
 * published post that are both neither common nor rare.
 */
function phraseFrom(posts, vocabulary) {
  const rankOf = new Map(vocabulary.map((word, index) => [word, index + 1]));
  const [low, high] = RANKS.phrase;
  const fits = (word) => rankOf.get(word) >= low && rankOf.get(word) <= high;
  for (const post of posts) {
    if (post.publishedAt === null) continue;
    for (const sentence of post.content.toLowerCase().split(/[.?]/)) {
      const words = sentence.match(/[a-z]+/g) ?? [];
      for (let i = 1; i < words.length; i++) {
        if (fits(words[i - 1]) && fits(words[i])) return `${words[i - 1]} ${words[i]}`;
      }
    }
  }
  throw new Error('no post has two words in a row of the phrase ranks');
}

/**
 * The measured queries: id, the search box's text, and what it stands for. A query's last word
 * is a prefix unless a space follows it (see searchPosts): S1 and S4 end with one, their words
 * being complete; S3 and S5 do not.
 */
function searchQueries(sizes, { vocabulary, text }) {
  const word = (rank) => vocabulary[rank - 1];
  const phrase = phraseFrom(planBlog(sizes, SEED, text).tables.posts(), vocabulary);
  const typing = word(RANKS.typing).slice(0, TYPED_LETTERS);
  return [
    {
      id: 'S1',
      query: `${word(RANKS.pair[0])} ${word(RANKS.pair[1])} `,
      what: `two mid-frequency words (ranks ${RANKS.pair.join(' and ')}), complete`,
    },
    {
      id: 'S2',
      query: `"${phrase}"`,
      what: `a phrase quoted from a post (ranks ${RANKS.phrase.join(' to ')})`,
    },
    {
      id: 'S3',
      query: `${word(RANKS.typed)} ${typing}`,
      what: `a word (rank ${RANKS.typed}) and the first ${TYPED_LETTERS} letters of the next, being typed`,
    },
    {
      id: 'S4',
      query: `${word(RANKS.common)} `,
      what: `one common word (rank ${RANKS.common}), complete`,
    },
    {
      id: 'S5',
      query: word(RANKS.common).slice(0, FIRST_LETTERS),
      what: `the first ${FIRST_LETTERS} letters of a common word (rank ${RANKS.common}), the first word being typed: the worst case`,
    },
  ];
}

const operationOf = ({ id, query }) => ({
  id,
  kind: 'read',
  as: null,
  bodies: [JSON.stringify({ query: SEARCH_QUERY, variables: { query } })],
});

/**
 * How many published posts each query matches, counted in the database by the service's own
 * reading of the query (from dist/), independently of the page statement.
 */
async function countMatches(databaseUrl, queries) {
  const search = require(join(ROOT, 'dist/src/blog/search/search-query.js'));
  const parsed = queries.map(({ query }) => search.parseSearchQuery(query));
  if (databaseUrl.startsWith('sqlite:')) {
    const Database = require('better-sqlite3');
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      const count = db.prepare(
        'SELECT COUNT(*) AS n FROM post_search_fts JOIN post_search s ON s.doc = post_search_fts.rowid ' +
          'WHERE post_search_fts MATCH ? AND s.published_at IS NOT NULL',
      );
      return parsed.map((query) => count.get(search.toFts5Match(query)).n);
    } finally {
      db.close();
    }
  }
  const { Client } = require('pg');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const counts = [];
    for (const query of parsed) {
      const { rows } = await client.query(
        "SELECT COUNT(*)::int AS n FROM post_search WHERE document @@ to_tsquery('simple', $1) " +
          'AND published_at IS NOT NULL',
        [search.toTsQuery(query)],
      );
      counts.push(rows[0].n);
    }
    return counts;
  } finally {
    await client.end();
  }
}

async function measure(contender, ctx, queries, options) {
  await contender.prepare();
  const server = await contender.start({ port: await freePort() });
  const figures = {};
  try {
    for (const query of queries) {
      const op = operationOf(query);
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
    `${results.posts.toLocaleString('en')} posts written with a Zipf-distributed vocabulary of ` +
      `${results.vocabulary.toLocaleString('en')} words, ${results.connections} connections, ` +
      `${results.duration} s per query after ${results.warmup} s of warm-up; ` +
      `${results.machine.cores} cores, load average ${results.machine.loadAverageAtStart} at start ` +
      `and ${results.machine.loadAverageAtEnd} at the end. Target: p99 < 50 ms. ` +
      'Matches: the published posts the query finds (each page shows 20).',
    '',
    '| query | database | matches | p50 ms | p99 ms | req/s | errors |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const [database, figures] of Object.entries(results.databases)) {
    for (const { id, query, what, matches } of results.queries) {
      const f = figures[id];
      lines.push(
        `| ${id} \`${query}\`: ${what} | ${database} | ${matches[database]} | ` +
          `${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.rps.toFixed(0)} | ${f.errors} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

async function postgresHas(postgres, database) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: postgres.url('postgres') });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

async function main() {
  const options = parseCli(process.argv.slice(2));
  const loadAtStart = loadavg()[0];
  ensureBuild(ROOT);
  const tmp = mkdtempSync(join(tmpdir(), 'blog-bench-search-'));
  const sizes = { users: 10_000, posts: options.posts, comments: 1000, likes: 1000, follows: 1000 };
  const ctx = { root: ROOT, tmp, secret: randomBytes(32).toString('hex') };
  const postgres = options.pg ? await detectPostgres() : null;
  const keep = options.data !== undefined;
  const dataName = `blog_bench_search_${DATA_VERSION}_${options.posts}`;
  const pgTemplate = keep ? dataName : `blog_bench_search_${process.pid}`;
  const dropTemplate = async () => {
    if (!keep && postgres && !postgres.unavailable) await dropDatabase(postgres, pgTemplate);
  };
  installCleanup(async () => {
    await dropTemplate();
    rmSync(tmp, { recursive: true, force: true });
  });
  const text = searchText();
  const queries = searchQueries(sizes, text);
  const results = {
    posts: options.posts,
    vocabulary: VOCABULARY_SIZE,
    connections: options.connections,
    duration: options.duration,
    warmup: options.warmup,
    machine: { cores: cpus().length, loadAverageAtStart: Number(loadAtStart.toFixed(2)) },
    queries: queries.map((query) => ({ ...query, matches: {} })),
    databases: {},
  };
  const fill = async (databaseUrl, label, discard) => {
    log(`Generating ${options.posts} posts on ${label}...`);
    try {
      await generate({ databaseUrl, sizes, seed: SEED, text: text.text, log });
    } catch (error) {
      // Half-filled kept data would be reused by the next run.
      await discard();
      throw error;
    }
  };
  const counted = async (database, databaseUrl) => {
    const counts = await countMatches(databaseUrl, queries);
    counts.forEach((count, i) => (results.queries[i].matches[database] = count));
  };
  try {
    if (keep) mkdirSync(options.data, { recursive: true });
    ctx.sqlitePristine = join(keep ? options.data : tmp, `${dataName}.sqlite`);
    if (!existsSync(ctx.sqlitePristine)) {
      await fill(`sqlite:${ctx.sqlitePristine}`, 'SQLite', async () =>
        removeSqlite(ctx.sqlitePristine),
      );
    } else log(`Reusing ${ctx.sqlitePristine}`);
    if (options.sqlite) {
      await counted('sqlite', `sqlite:${ctx.sqlitePristine}`);
      results.databases.sqlite = await measure(oursSqlite(ctx), ctx, queries, options);
    }
    if (postgres && !postgres.unavailable) {
      Object.assign(ctx, { postgres, pgTemplate });
      if (!keep || !(await postgresHas(postgres, pgTemplate))) {
        await createDatabase(postgres, pgTemplate);
        await fill(postgres.url(pgTemplate), 'PostgreSQL', () =>
          dropDatabase(postgres, pgTemplate),
        );
      } else log(`Reusing the PostgreSQL database ${pgTemplate}`);
      await counted('postgres', postgres.url(pgTemplate));
      results.databases.postgres = await measure(oursPostgres(ctx), ctx, queries, options);
    } else if (postgres?.unavailable) log(`PostgreSQL skipped: ${postgres.unavailable}`);
  } finally {
    await dropTemplate();
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
