/**
 * Turns the raw figures into results: ratios to the ceiling, to the plain Apollo baseline and
 * to the Mercurius + JIT baseline (and, on PostgreSQL, to PostGraphile 4 and 5), the errors by
 * kind,
 * the targets of the issue (met / not met), a summary on stdout, and bench/results/latest.json
 * plus latest.md for the README to quote.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describeErrors, ERROR_KINDS, errorsOf } from './lib/contest.mjs';
import { OPERATION_IDS, OPERATION_TITLES, READ_OPERATION_IDS } from './operations.mjs';

const ratio = (a, b) => (a != null && b != null && b > 0 ? a / b : null);

function ratiosTo(op, ref) {
  if (!op || op.status !== 'ok' || !ref || ref.status !== 'ok') return null;
  return {
    rps: ratio(op.rps, ref.rps),
    throughputP99: ratio(op.throughputP99, ref.throughputP99),
    p50: ratio(op.p50, ref.p50),
    p99: ratio(op.p99, ref.p99),
  };
}

const find = (contenders, id) => contenders.find((c) => c.id === id && c.status === 'ok');

/**
 * The contenders on PostgreSQL: run.mjs skips them without PostgreSQL, and their figures are also
 * divided by PostGraphile 4's and 5's.
 */
export const POSTGRES_CONTENDERS = ['ours-pg', 'postgraphile', 'postgraphile5', 'floor-pg'];
const ON_POSTGRES = new Set(POSTGRES_CONTENDERS);

/**
 * The targets of issue 20 (thresholds per operation). PostGraphile 4's are issue 11's, kept
 * beside 5's so that the two peers can be compared. Peak RSS on SQLite is bounded by Mercurius'
 * own peak in the same run (`'mercurius'`), on PostgreSQL by a size; at rest is RSS after start.
 */
const TARGETS = {
  vsApollo: 1.0,
  vsMercurius: 0.8,
  vsPostGraphile: { Q1: 1.0, Q2: 1.0, Q3: 0.6, Q4: 1.0 },
  vsPostGraphile5: { Q1: 1.0, Q2: 1.0, Q3: 0.7, Q4: 1.0 },
  peakRssMb: { 'ours-sqlite': 'mercurius', 'ours-pg': 200 },
  idleRssMb: { 'ours-sqlite': 100, 'ours-pg': 100 },
  statements: { Q1: 1, Q2: 6, Q3: 2, Q4: 2 },
};

/** The errors of a contender's operations by kind, a failed first check counting as one. */
function sumErrors(results) {
  const total = { silentRounds: 0, failedChecks: 0 };
  for (const kind of Object.keys(ERROR_KINDS)) total[kind] = 0;
  for (const result of results) {
    if (result.status !== 'ok') total.failedChecks++;
    for (const [kind, n] of Object.entries(result.errorsByKind ?? {})) total[kind] += n;
  }
  return total;
}

function computeTargets({ contenders, growth, options }) {
  const ours = find(contenders, 'ours-sqlite');
  const apollo = find(contenders, 'apollo');
  const mercurius = find(contenders, 'mercurius');
  const oursPg = find(contenders, 'ours-pg');
  const graphile = find(contenders, 'postgraphile');
  const graphile5 = find(contenders, 'postgraphile5');
  const targets = [];
  const add = (name, value, threshold, compare, why = null, unit = 'ratio', detail = null) =>
    targets.push({
      name,
      value,
      unit,
      threshold,
      met: value == null ? null : compare(value),
      ...(detail ? { detail } : {}),
      ...(value == null && why ? { why } : {}),
    });
  const rpsRatio = (a, b, op) => (a && b ? ratio(a.ops[op]?.rps, b.ops[op]?.rps) : null);
  const atLeast = (min) => [`≥ ${min.toFixed(1)}`, (v) => v >= min];

  for (const op of OPERATION_IDS) {
    add(
      `ours (SQLite) / plain Apollo, ${op} req/s`,
      rpsRatio(ours, apollo, op),
      ...atLeast(TARGETS.vsApollo),
      'Apollo baseline not measured',
    );
  }
  for (const op of OPERATION_IDS) {
    add(
      `ours (SQLite) / Mercurius + JIT, ${op} req/s`,
      rpsRatio(ours, mercurius, op),
      ...atLeast(TARGETS.vsMercurius),
      'Mercurius baseline not measured',
    );
  }
  for (const [op, min] of Object.entries(TARGETS.vsPostGraphile)) {
    add(
      `ours on PostgreSQL / PostGraphile 4, ${op} req/s`,
      rpsRatio(oursPg, graphile, op),
      ...atLeast(min),
      'PostgreSQL contenders not measured',
    );
  }
  for (const [op, min] of Object.entries(TARGETS.vsPostGraphile5)) {
    add(
      `ours on PostgreSQL / PostGraphile 5, ${op} req/s`,
      rpsRatio(oursPg, graphile5, op),
      ...atLeast(min),
      'PostgreSQL contenders not measured',
    );
  }
  for (const [id, bound] of Object.entries(TARGETS.peakRssMb)) {
    const contender = find(contenders, id);
    const max = typeof bound === 'number' ? bound : find(contenders, bound)?.peakRssMb;
    add(
      `peak RSS of ${id} (MB)`,
      max == null ? null : (contender?.peakRssMb ?? null),
      typeof bound === 'number' ? `≤ ${max}` : `≤ ${mb(max)} (${bound}' peak)`,
      (v) => v <= max,
      max == null ? `${bound} not measured` : `${id} not measured`,
      'MB',
    );
  }
  for (const [id, max] of Object.entries(TARGETS.idleRssMb)) {
    add(
      `RSS of ${id} at rest, after start (MB)`,
      find(contenders, id)?.idleRssMb ?? null,
      `≤ ${max}`,
      (v) => v <= max,
      `${id} not measured`,
      'MB',
    );
  }
  // Errors of ours on both databases, the growth points included; everyone's are in the report.
  const oursResults = [ours, oursPg]
    .filter(Boolean)
    .flatMap((c) => Object.values(c.ops))
    .concat(growth.map((point) => point.results['ours-sqlite']).filter(Boolean));
  const errors = sumErrors(oursResults);
  const { timeouts, ...others } = errors;
  const otherCount = Object.values(others).reduce((sum, n) => sum + n, 0);
  const scope = oursPg ? 'SQLite and PostgreSQL' : 'SQLite';
  add(`timeouts of ours (${scope}, every round)`, timeouts, '= 0', (v) => v === 0, null, 'count');
  add(
    `other errors of ours (${scope}, every round: non-2xx, GraphQL errors, wrong sizes, socket errors, failed checks)`,
    otherCount,
    '= 0',
    (v) => v === 0,
    null,
    'count',
    otherCount ? describeErrors(others) : null,
  );
  for (const contender of [
    { id: 'ours-sqlite', result: ours },
    { id: 'ours-pg', result: oursPg },
  ]) {
    for (const [op, max] of Object.entries(TARGETS.statements)) {
      add(
        `SQL statements per request, ${contender.id}, ${op}`,
        contender.result?.ops[op]?.statements ?? null,
        `≤ ${max}`,
        (v) => v <= max,
        `${contender.id} not measured`,
        'statements',
      );
    }
  }
  if (options.mode === 'small') {
    for (const target of targets) target.note = 'small run: 1/10 of the data and short rounds';
  }
  return targets;
}

export function buildResults({
  options,
  machine,
  commit,
  data,
  contenders,
  skipped,
  growth,
  notes,
  seconds,
}) {
  const ceiling = find(contenders, 'ceiling');
  const apollo = find(contenders, 'apollo');
  const mercurius = find(contenders, 'mercurius');
  const graphile = find(contenders, 'postgraphile');
  const graphile5 = find(contenders, 'postgraphile5');
  for (const contender of contenders) {
    for (const id of Object.keys(contender.ops)) {
      const op = contender.ops[id];
      op.vsCeiling = ratiosTo(op, ceiling?.ops[id]);
      op.vsApollo = ratiosTo(op, apollo?.ops[id]);
      op.vsMercurius = ratiosTo(op, mercurius?.ops[id]);
      if (ON_POSTGRES.has(contender.id)) {
        op.vsPostGraphile = ratiosTo(op, graphile?.ops[id]);
        op.vsPostGraphile5 = ratiosTo(op, graphile5?.ops[id]);
      }
    }
    contender.peakRssVsApollo = ratio(contender.peakRssMb, apollo?.peakRssMb);
    contender.peakRssVsMercurius = ratio(contender.peakRssMb, mercurius?.peakRssMb);
  }
  const results = {
    date: new Date().toISOString(),
    mode: options.mode,
    commit,
    seconds: Math.round(seconds),
    machine,
    settings: {
      durationSeconds: options.duration,
      warmupSeconds: options.warmup,
      throughputConnections: options.connections,
      latencyConnections: options.latencyConnections,
      passes: options.passes ?? 1,
      seed: options.seed,
    },
    data,
    operations: OPERATION_TITLES,
    contenders,
    skipped,
    growth,
    notes: [...notes, ...NOTES],
  };
  results.targets = computeTargets({ contenders, growth, options });
  return results;
}

const NOTES = [
  'Load: autocannon 8 in a separate process on the same machine (it competes with the server for the cores). ' +
    'Throughput = 2xx responses per second with the throughput connections after a warm-up, with the p99 and the slowest response (max) of that round; ' +
    'latency = p50/p99 with the latency connections, computed from every response time (fractional ms), ' +
    'after the server has answered what was left of the throughput round and a short warm-up at the latency connections.',
  'Every response is checked during the load: a read must have exactly the length of the reference response, ' +
    'a write must be {"data":...} without "errors". Errors are counted by kind in every round, warm-ups included: ' +
    'timeouts (no answer within 10 s, autocannon closes the connection and opens another), non-2xx statuses, ' +
    'GraphQL errors (or a write that is not {"data":...}), wrong sizes, socket errors, a measured round without any response, ' +
    "and a failed first check (the operation is then not measured). latest.json has them per round, with the round's first bad body.",
  'Mercurius + JIT: Fastify 5 and Mercurius 16 with graphql-jit compiling each query from its second run (jit: 1), ' +
    "on the plain Apollo baseline's schema, resolvers, DataLoaders and SQL (bench/baseline), so that the two differ only in the server and the executor.",
  'Reads are anonymous except Q2 (the viewer, who follows 50 users). Writes sign in as a writer that no read looks at, ' +
    'so writes never change a read response; each contender also gets its own copy of the database.',
  "P1 (issue 64), a post's page: `postBySlug` of a popular published post outside the feed (10 comments or more, 3 tags, content with headings), " +
    'with its id, slug, title, publishedAt, readingTimeMinutes, contentHtml, toc, author, tags and comments(first: 10) with textHtml, createdAt and author. ' +
    'It runs after W2, so that the six operations before it run as before. The generator writes what the service writes since the publishing migration: ' +
    "slugs (and post_slugs), rendered HTML, plain text, headings, excerpt and word count, comments' HTML, with the service's own renderer from dist/. " +
    'The baselines read these columns for P1 but do not write them on W1.',
  'The ceiling answers with the bytes our service returned, picked by an x-bench-op header, without parsing.',
  "SQL statements per request come from a second run of each server with its SQL log on (TypeORM logging, the baseline's log, " +
    "PostGraphile 4's DEBUG=postgraphile:postgres, which includes its begin/set_config/commit around JWT requests, " +
    "and every statement PostGraphile 5's pool connections send, its begin/set_config/commit included).",
  "Peak RSS is VmHWM of the server process from /proc (its own process only; PostgreSQL's memory is not included).",
  "CPU µs/req: the CPU time of the server's process during the throughput round (user and system, every thread of it: " +
    "the garbage collector's, libuv's and worker threads included; from /proc), divided by the answers of that round. " +
    'It is what the server itself spends, where req/s also depends on the share of the cores that the load generator takes. ' +
    "PostgreSQL's own work is not in it, so on PostgreSQL it compares the servers' side only.",
  'Cold start: after its load and statement count, each server (not the ceiling) is started again a few times on its data, warm in the page cache, ' +
    'and asked a tiny query every 10 ms from its spawn until it answers with data; the time to that answer includes loading the code, ' +
    'connecting to the database, migrations (ours, a no-op) or introspection (PostGraphile), building the schema and the first execution. ' +
    'The median is reported.',
  'PostGraphile 4: default inflection (postById, allUsers, userByAuthorId, commentsByPostId, connections with nodes), ' +
    'likesCount as likesByPostId.totalCount, and SQL functions (bench/peers/postgraphile-api.sql) where the tables alone cannot say it: ' +
    'Q2 is a `feed()` set-returning function (followed authors and the viewer from the JWT, inlined by PostgreSQL so first: 20 is a LIMIT), ' +
    'Q3 uses a computed column users_published_posts (drafts excluded), isLikedByMe is a computed column, ' +
    'W1/W2 are custom mutations writePost/likePost/unlikePost taking the author from the JWT (likes idempotent). ' +
    'P1 is a `post_by_slug(slug)` function (post_slugs joined to posts, as ours reads it; a unique index is not a unique constraint to PostGraphile), ' +
    'with the stored content_html, toc as a setof function over the stored JSON (`toc { nodes }`), readingTimeMinutes a computed column from word_count, ' +
    'the tags as the post_tags relation ordered by position, and commentsByPostId(first: 10, orderBy: ID_ASC) with text_html.',
  'PostGraphile 5.1 (Grafast): the Amber preset with PgSimplifyInflectionPreset, grafserv on node:http, no Ruru (GraphiQL), no watch, no explain, ' +
    'a pg pool of 10, the JWT checked in grafast.context and handed to PostgreSQL as jwt.claims.sub; the same SQL functions as PostGraphile 4, ' +
    "with its own names (post(rowId:), users, author, likes.totalCount, comments, postTags, a mutation's row as result, a toc entry's id as rowId) " +
    'and smart comments (bench/peers5/postgraphile5-api.sql; for P1, post_tags.position made orderable, since PostGraphile 5 orders by indexed columns only).',
  'Growth: the whole blog is scaled (users, comments, likes and follows with the posts) and the viewer still follows 50 users, ' +
    'as a real reader does: the posts of the feed stay about as many while the tables around them grow, ' +
    'so a page that costs more at 100,000 posts than at 1,000 is paying for the size of the tables.',
];

// ---------- formatting ----------

const int = (v) => (v == null ? '–' : Math.round(v).toLocaleString('en-US'));
const ms = (v) => (v == null ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const x = (v) => (v == null ? '–' : v.toFixed(2));
const cpu = (v) => (v == null ? '–' : v.toFixed(1));
const mb = (v) => (v == null ? '–' : v.toFixed(0));
const statements = (v) => (v == null ? '–' : Number.isInteger(v) ? String(v) : v.toFixed(1));
function targetValue(t) {
  if (t.value == null) return '–';
  if (t.unit === 'MB') return mb(t.value);
  if (t.unit === 'statements') return statements(t.value);
  if (t.unit === 'count') return t.detail ? `${int(t.value)} (${t.detail})` : int(t.value);
  return x(t.value);
}
const verdict = (met) => (met === null ? 'not measured' : met ? 'met' : 'NOT MET');

function table(headers, rows, align) {
  const out = [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map((_, i) => (align?.[i] === 'l' ? '---' : '---:')).join(' | ')} |`,
  ];
  for (const row of rows) out.push(`| ${row.join(' | ')} |`);
  return out.join('\n');
}

function textTable(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
      .join('  ');
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/**
 * Whether an operation's tables list the contender: every contender that failed, and every other
 * that ran the operation (the framework floor runs Q1 only).
 */
const listedFor = (contender, id) => contender.status !== 'ok' || id in contender.ops;

function opCells(contender, id) {
  const op = contender.ops[id];
  if (!op || op.status !== 'ok') return null;
  return op;
}

/** An operation's errors, by kind: "3 timeouts, 1 non-2xx", or "0". */
const errorText = (op) =>
  op.errorsByKind ? describeErrors(op.errorsByKind) : String(op.errors ?? '–');

/** The rounds of an operation that had errors: "throughput: 3 timeouts; latency: 1 wrong size". */
const roundsWithErrors = (op) =>
  Object.entries(op.rounds ?? {})
    .map(([name, round]) => [name, round, describeErrors(errorsOf(round))])
    .filter(([, , text]) => text !== '0');

export function printSummary(results, log) {
  const { throughputConnections: many, latencyConnections: few } = results.settings;
  log(`\nResults (${results.mode}; ${results.machine.cores} cores, Node ${results.machine.node})`);
  const rows = [];
  for (const id of OPERATION_IDS) {
    for (const contender of results.contenders) {
      const op = opCells(contender, id);
      if (contender.status === 'skipped' || !listedFor(contender, id)) continue;
      rows.push(
        op
          ? [
              `${id} ${contender.id}`,
              int(op.rps),
              x(op.vsCeiling?.rps),
              x(op.vsApollo?.rps),
              x(op.vsMercurius?.rps),
              x(op.vsPostGraphile?.rps),
              x(op.vsPostGraphile5?.rps),
              ms(op.throughputP99),
              int(op.throughputMax),
              ms(op.p50),
              ms(op.p99),
              statements(op.statements),
              errorText(op),
            ]
          : [
              `${id} ${contender.id}`,
              'failed',
              ...Array(10).fill(''),
              contender.ops[id]?.reason?.slice(0, 40) ?? contender.reason?.slice(0, 40) ?? '',
            ],
      );
    }
  }
  log(
    textTable(
      [
        'op contender',
        'req/s',
        '×ceil',
        '×apollo',
        '×merc',
        '×pg4',
        '×pg5',
        `p99@${many}`,
        `max@${many}`,
        `p50@${few}`,
        `p99@${few}`,
        'SQL/req',
        'errors',
      ],
      rows,
    ),
  );
  log(`(req/s and p99/max in ms with ${many} connections; p50/p99 in ms with ${few})`);
  log('');
  log(
    textTable(
      ['contender', 'peak RSS MB', 'peak during', 'cold start ms'],
      results.contenders
        .filter((c) => c.status !== 'skipped')
        .map((c) => [c.id, mb(c.peakRssMb), c.peakDuring ?? '–', int(c.coldStart?.medianMs)]),
    ),
  );
  if (results.growth.length) {
    log('');
    log(
      textTable(
        ['Q2 growth', 'ours req/s', 'ours p50', 'apollo req/s', 'apollo p50', 'errors'],
        results.growth.map((p) => [
          `${int(p.posts)} posts`,
          int(p.results['ours-sqlite']?.rps),
          ms(p.results['ours-sqlite']?.p50),
          int(p.results.apollo?.rps),
          ms(p.results.apollo?.p50),
          Object.entries(p.results)
            .map(([who, r]) => (r.status === 'ok' ? [who, errorText(r)] : [who, 'failed']))
            .filter(([, text]) => text !== '0')
            .map(([who, text]) => `${who}: ${text}`)
            .join('; ') || '0',
        ]),
      ),
    );
  }
  for (const skip of results.skipped) log(`\nSkipped ${skip.id}: ${skip.reason}`);
  for (const c of results.contenders.filter((c) => c.status !== 'ok'))
    log(`\n${c.id} ${c.status}: ${c.reason}`);
  log('\nTargets');
  log(
    textTable(
      ['target', 'value', 'wanted', 'result'],
      results.targets.map((t) => [t.name, targetValue(t), t.threshold, verdict(t.met)]),
    ),
  );
}

function markdown(results) {
  const { machine, settings, data } = results;
  const passes = settings.passes ?? 1;
  const lines = [];
  const push = (...more) => lines.push(...more);
  const modeText = {
    small: 'small run (`--small`: 1/10 of the data, short rounds; the figures are indicative)',
    full: 'full run',
    large: 'full run with the 1,000,000-post growth point (`--large`)',
  }[results.mode];
  push('# Load benchmark results', '');
  push(
    `Generated by \`npm run bench\` (bench/run.mjs) on ${results.date.slice(0, 10)}: ${modeText}.`,
    '',
  );
  push(
    `- Machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGb} GB, Node ${machine.node}, ${machine.os}` +
      `${machine.postgres ? `, PostgreSQL ${machine.postgres}` : ''}; load average ${machine.loadAverageAtStart} when the run started.`,
  );
  push(
    `- Commit: ${results.commit ?? 'unknown'}; the whole run took ${Math.round(results.seconds / 60)} min.`,
  );
  push(
    `- Data (seed ${settings.seed}): ${int(data.counts.users)} users, ${int(data.counts.posts)} posts (${data.drafts} drafts), ` +
      `${int(data.counts.comments)} comments, ${int(data.counts.likes)} likes, ${int(data.counts.follows)} follows` +
      (data.counts.post_tags != null ? `, ${int(data.counts.post_tags)} tags on posts; ` : '; ') +
      `the signed-in viewer follows ${data.viewerFollows} users.`,
  );
  push(
    `- Load: throughput = requests/s with ${settings.throughputConnections} connections for ${settings.durationSeconds} s ` +
      `after ${settings.warmupSeconds} s of warm-up, with the p99 and the slowest response (max) of that round` +
      (passes > 1
        ? `; the best of ${passes} such rounds, one per pass, each on a fresh server and a fresh copy of the data, ` +
          'each pass after the first running the contenders in the other order (see "Throughput passes")'
        : '') +
      `; latency = p50/p99 with ${settings.latencyConnections} connections for ${settings.durationSeconds} s.`,
  );
  push(
    '- Ratios: "× ceiling", "× Apollo" and "× Mercurius" divide a figure by the same figure of the ceiling, of the plain Apollo baseline ' +
      'and of the Mercurius + JIT baseline; "× PostGraphile 4" and "× PostGraphile 5" divide the req/s of a contender on PostgreSQL by theirs ' +
      '(for req/s higher is better; for latency and memory lower is better).',
    '',
  );

  push('## Targets', '');
  push(
    table(
      ['target', 'value', 'wanted', 'result'],
      results.targets.map((t) => [t.name, targetValue(t), t.threshold, verdict(t.met)]),
      ['l', 'r', 'r', 'l'],
    ),
    '',
  );
  if (results.mode === 'small')
    push(
      'The targets are defined for the full run (`npm run bench`); a small run only shows the direction.',
      '',
    );

  push('## Contenders', '');
  push(
    table(
      [
        'id',
        'contender',
        'status',
        'RSS after start MB',
        'peak RSS MB',
        'peak during',
        'peak × Apollo',
        'peak × Mercurius',
        'cold start ms',
      ],
      results.contenders.map((c) => [
        c.id,
        c.label,
        c.status === 'ok' ? 'ok' : `${c.status}: ${c.reason?.split('\n')[0] ?? ''}`,
        mb(c.idleRssMb),
        mb(c.peakRssMb),
        c.peakDuring ?? '–',
        x(c.peakRssVsApollo),
        x(c.peakRssVsMercurius),
        int(c.coldStart?.medianMs),
      ]),
      ['l', 'l', 'l'],
    ),
    '',
  );
  const started = results.contenders.filter((c) => c.coldStart);
  if (started.length) {
    push('### Cold start', '');
    push(
      "From the spawn of the server process to the first answer to a fixed tiny query (the first post, in each schema's words), " +
        `median of ${started[0].coldStart.runs.length} fresh starts:`,
      '',
    );
    push(
      table(
        ['contender', 'median ms', 'each start ms', 'query'],
        started.map((c) => [
          c.id,
          int(c.coldStart.medianMs),
          c.coldStart.runs.map(int).join(', '),
          `\`${c.coldStart.query}\``,
        ]),
        ['l', 'r', 'l', 'l'],
      ),
      '',
    );
  }
  for (const skip of results.skipped) push(`- Skipped ${skip.id}: ${skip.reason}`);
  if (results.skipped.length) push('');

  push('## Operations', '');
  const many = `@${settings.throughputConnections}`;
  const few = `@${settings.latencyConnections}`;
  push(
    `req/s, CPU µs/req, p99 and max ${many}: the ${passes > 1 ? 'best ' : ''}throughput round (${settings.throughputConnections} connections); ` +
      `p50 and p99 ${few}: the latency round (${settings.latencyConnections} connections). ` +
      'Errors by kind, over every round of the operation (see "Errors" for the rounds).',
    '',
  );
  for (const id of OPERATION_IDS) {
    push(`### ${id}: ${results.operations[id]}`, '');
    const headers = [
      'contender',
      'req/s',
      '× ceiling',
      '× Apollo',
      '× Mercurius',
      '× PostGraphile 4',
      '× PostGraphile 5',
      'CPU µs/req',
      `p99 ${many} ms`,
      `max ${many} ms`,
      `p50 ${few} ms`,
      '× Apollo',
      '× Mercurius',
      `p99 ${few} ms`,
      '× Apollo',
      '× Mercurius',
      'SQL/req',
      'bytes',
      'errors',
    ];
    const rows = results.contenders
      .filter((c) => c.status !== 'skipped' && listedFor(c, id))
      .map((c) => {
        const op = opCells(c, id);
        if (!op)
          return [
            c.id,
            `failed: ${(c.ops[id]?.reason ?? c.reason ?? '').slice(0, 80)}`,
            ...headers.slice(2).map(() => ''),
          ];
        return [
          c.id,
          int(op.rps),
          x(op.vsCeiling?.rps),
          x(op.vsApollo?.rps),
          x(op.vsMercurius?.rps),
          x(op.vsPostGraphile?.rps),
          x(op.vsPostGraphile5?.rps),
          cpu(op.serverCpuUsPerRequest),
          ms(op.throughputP99),
          int(op.throughputMax),
          ms(op.p50),
          x(op.vsApollo?.p50),
          x(op.vsMercurius?.p50),
          ms(op.p99),
          x(op.vsApollo?.p99),
          x(op.vsMercurius?.p99),
          statements(op.statements),
          int(op.responseBytes),
          errorText(op),
        ];
      });
    push(table(headers, rows, ['l']), '');
  }

  if (passes > 1) {
    push('## Throughput passes', '');
    push(
      `req/s ${many} of each throughput pass, in the order of the passes: the first ran the contenders in ` +
        'the order of the tables, the second in reverse order, and so on alternating, each on a fresh ' +
        'server and a fresh copy of the data. The tables above keep the best.',
      '',
    );
    push(
      table(
        ['contender', ...OPERATION_IDS],
        results.contenders
          .filter((c) => c.status !== 'skipped')
          .map((c) => [
            c.id,
            ...OPERATION_IDS.map((id) => {
              const byPass = c.ops[id]?.rpsByPass;
              return byPass ? byPass.map(int).join(' / ') : '–';
            }),
          ]),
        ['l'],
      ),
      '',
    );
  }

  push('## Errors', '');
  push(
    'Errors by kind for every contender and operation, warm-up rounds included ' +
      '(timeouts: no answer within 10 s; non-2xx; GraphQL errors; wrong sizes; socket errors):',
    '',
  );
  const measured = results.contenders.filter((c) => c.status !== 'skipped');
  push(
    table(
      ['contender', ...OPERATION_IDS],
      measured.map((c) => [
        c.id,
        ...OPERATION_IDS.map((id) => {
          const op = c.ops[id];
          if (!op) return '–';
          return op.status === 'ok' ? errorText(op) : 'failed check';
        }),
      ]),
      ['l', ...OPERATION_IDS.map(() => 'l')],
    ),
    '',
  );
  const details = [];
  for (const c of measured) {
    for (const id of OPERATION_IDS) {
      const op = c.ops[id];
      if (op?.status === 'failed') details.push(`- ${c.id} ${id}: failed check: ${op.reason}`);
      for (const [name, round, text] of op ? roundsWithErrors(op) : []) {
        const body = round.firstBadBody
          ? `; first bad body: \`${round.firstBadBody.slice(0, 160).replaceAll('`', "'")}\``
          : '';
        details.push(
          `- ${c.id} ${id}, ${name} round (${round.connections} connections): ${text}; ` +
            `slowest answer ${int(round.max)} ms${body}`,
        );
      }
    }
  }
  for (const point of results.growth) {
    for (const [who, r] of Object.entries(point.results)) {
      if (r.status !== 'ok') details.push(`- growth ${int(point.posts)} posts, ${who}: failed`);
      else if (r.errors)
        details.push(`- growth ${int(point.posts)} posts, ${who}: ${errorText(r)}`);
    }
  }
  push(...(details.length ? details : ['No errors in any round.']), '');

  push('## Same answers', '');
  push(
    "Each contender's first answer to each read, compared with our service on SQLite (the reference):",
    '',
  );
  push(
    table(
      ['contender', ...READ_OPERATION_IDS],
      results.contenders
        .filter((c) => c.status !== 'skipped' && c.id !== 'ours-sqlite')
        .map((c) => [
          c.id,
          ...READ_OPERATION_IDS.map((id) => {
            const op = c.ops[id];
            if (!op || op.status !== 'ok') return '–';
            if (op.sameAsOurs !== undefined) return op.sameAsOurs ? 'identical bytes' : 'DIFFERENT';
            if (op.sameDataAsOurs !== undefined)
              return `${op.sameDataAsOurs ? 'same data' : 'DIFFERENT data'}, ${x(op.sizeVsOurs)}× size`;
            return '–';
          }),
        ]),
      ['l', ...READ_OPERATION_IDS.map(() => 'l')],
    ),
    '',
  );
  push(
    '"Same data" compares the values in document order (keys ignored, timestamps normalised), since PostGraphile 4 and 5 name fields their own way.',
    '',
  );

  if (results.growth.length) {
    push('## Growth of the feed (Q2)', '');
    const base = results.growth.find((p) => p.posts === 1_000)?.results;
    push(
      table(
        [
          'posts',
          'users',
          'Q2 bytes',
          'ours req/s',
          'ours p50 ms',
          'ours p99 ms',
          'ours vs 1,000 posts',
          'Apollo req/s',
          'Apollo p50 ms',
          'Apollo vs 1,000 posts',
        ],
        results.growth.map((p) => {
          const ours = p.results['ours-sqlite'];
          const apollo = p.results.apollo;
          return [
            int(p.posts),
            int(p.users),
            int(ours?.responseBytes),
            int(ours?.rps),
            ms(ours?.p50),
            ms(ours?.p99),
            x(ratio(ours?.rps, base?.['ours-sqlite']?.rps)),
            int(apollo?.rps),
            ms(apollo?.p50),
            x(ratio(apollo?.rps, base?.apollo?.rps)),
          ];
        }),
      ),
      '',
    );
  }

  push('## How it is measured', '');
  for (const note of results.notes) push(`- ${note}`);
  push('');
  return lines.join('\n');
}

/** Writes latest.json and latest.md, with the local paths in `redact` (error logs) replaced. */
export function writeReports(results, dir, redact = []) {
  const clean = (text) =>
    redact.filter(Boolean).reduce((out, [path, as]) => out.split(path).join(as), text);
  const json = join(dir, 'latest.json');
  const md = join(dir, 'latest.md');
  writeFileSync(json, clean(`${JSON.stringify(results, null, 2)}\n`));
  writeFileSync(md, clean(markdown(results)));
  return [json, md];
}
