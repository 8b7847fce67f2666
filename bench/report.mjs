/**
 * Turns the raw figures into results: ratios to the ceiling and to the plain Apollo baseline,
 * the targets of the issue (met / not met), a summary on stdout, and bench/results/latest.json
 * plus latest.md for the README to quote.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATION_IDS, OPERATION_TITLES } from './operations.mjs';

const ratio = (a, b) => (a != null && b != null && b > 0 ? a / b : null);

function ratiosTo(op, ref) {
  if (!op || op.status !== 'ok' || !ref || ref.status !== 'ok') return null;
  return { rps: ratio(op.rps, ref.rps), p50: ratio(op.p50, ref.p50), p99: ratio(op.p99, ref.p99) };
}

const find = (contenders, id) => contenders.find((c) => c.id === id && c.status === 'ok');

function computeTargets({ contenders, growth, options }) {
  const ours = find(contenders, 'ours-sqlite');
  const ceiling = find(contenders, 'ceiling');
  const apollo = find(contenders, 'apollo');
  const oursPg = find(contenders, 'ours-pg');
  const graphile = find(contenders, 'postgraphile');
  const targets = [];
  const add = (name, value, threshold, compare, why = null, unit = 'ratio') =>
    targets.push({
      name,
      value,
      unit,
      threshold,
      met: value == null ? null : compare(value),
      ...(value == null && why ? { why } : {}),
    });
  const rpsRatio = (a, b, op) => (a && b ? ratio(a.ops[op]?.rps, b.ops[op]?.rps) : null);

  for (const op of OPERATION_IDS) {
    add(
      `ours / plain Apollo, ${op} req/s`,
      rpsRatio(ours, apollo, op),
      '≥ 0.9',
      (v) => v >= 0.9,
      'Apollo baseline not measured',
    );
  }
  add(
    'ours / ceiling, Q1 req/s',
    rpsRatio(ours, ceiling, 'Q1'),
    '≥ 0.30',
    (v) => v >= 0.3,
    'ceiling not measured',
  );
  add(
    'ours / ceiling, Q2 req/s',
    rpsRatio(ours, ceiling, 'Q2'),
    '≥ 0.20',
    (v) => v >= 0.2,
    'ceiling not measured',
  );
  for (const op of ['Q2', 'Q3']) {
    add(
      `ours on PostgreSQL / PostGraphile, ${op} req/s`,
      rpsRatio(oursPg, graphile, op),
      '≥ 1.0',
      (v) => v >= 1,
      'PostgreSQL contenders not measured',
    );
  }
  const small = growth.find((point) => point.posts === 1_000)?.results['ours-sqlite'];
  for (const point of growth.filter((p) => p.posts > 1_000)) {
    const value = ratio(point.results['ours-sqlite']?.rps, small?.rps);
    add(
      `Q2 req/s at ${point.posts.toLocaleString('en-US')} posts / at 1,000 posts`,
      value,
      '≥ 0.8',
      (v) => v >= 0.8,
      'growth not measured',
    );
  }
  if (!growth.length)
    add('Q2 req/s growth', null, '≥ 0.8', () => false, 'growth not measured (--no-growth)');
  for (const contender of [ours, oursPg].filter(Boolean)) {
    add(
      `peak RSS of ${contender.label} (MB)`,
      contender.peakRssMb,
      '≤ 250',
      (v) => v <= 250,
      null,
      'MB',
    );
  }
  const errors =
    contenders.reduce(
      (sum, c) =>
        sum +
        Object.values(c.ops).reduce(
          (s, op) => s + (op.errors ?? 0) + (op.status === 'failed' ? 1 : 0),
          0,
        ),
      0,
    ) +
    growth.reduce(
      (sum, p) =>
        sum +
        Object.values(p.results).reduce(
          (s, r) => s + (r.errors ?? 0) + (r.status === 'ok' ? 0 : 1),
          0,
        ),
      0,
    );
  add(
    'errors (non-2xx, GraphQL errors, wrong sizes, socket errors, failed checks)',
    errors,
    '= 0',
    (v) => v === 0,
    null,
    'count',
  );
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
  for (const contender of contenders) {
    for (const id of Object.keys(contender.ops)) {
      const op = contender.ops[id];
      op.vsCeiling = ratiosTo(op, ceiling?.ops[id]);
      op.vsApollo = ratiosTo(op, apollo?.ops[id]);
    }
    contender.peakRssVsApollo = ratio(contender.peakRssMb, apollo?.peakRssMb);
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
    'Throughput = 2xx responses per second with the throughput connections after a warm-up; ' +
    'latency = p50/p99 with the latency connections, computed from every response time (fractional ms), ' +
    'after the server has answered what was left of the throughput round and a short warm-up at the latency connections.',
  'Every response is checked during the load: a read must have exactly the length of the reference response, ' +
    'a write must be {"data":...} without "errors". Any other answer counts as an error.',
  'Reads are anonymous except Q2 (the viewer, who follows 50 users). Writes sign in as a writer that no read looks at, ' +
    'so writes never change a read response; each contender also gets its own copy of the database.',
  'The ceiling answers with the bytes our service returned, picked by an x-bench-op header, without parsing.',
  "SQL statements per request come from a second run of each server with its SQL log on (TypeORM logging, the baseline's log, " +
    "PostGraphile's DEBUG=postgraphile:postgres, which includes its begin/set_config/commit around JWT requests).",
  "Peak RSS is VmHWM of the server process from /proc (its own process only; PostgreSQL's memory is not included).",
  'PostGraphile: default inflection (postById, allUsers, userByAuthorId, commentsByPostId, connections with nodes), ' +
    'likesCount as likesByPostId.totalCount, and SQL functions (bench/peers/postgraphile-api.sql) where the tables alone cannot say it: ' +
    'Q2 is a `feed()` set-returning function (followed authors and the viewer from the JWT, inlined by PostgreSQL so first: 20 is a LIMIT), ' +
    'Q3 uses a computed column users_published_posts (drafts excluded), isLikedByMe is a computed column, ' +
    'W1/W2 are custom mutations writePost/likePost/unlikePost taking the author from the JWT (likes idempotent).',
  'Growth: the whole blog is scaled (users, comments, likes and follows with the posts) and the viewer still follows 50 users, ' +
    'as a real reader does: the posts of the feed stay about as many while the tables around them grow, ' +
    'so a page that costs more at 100,000 posts than at 1,000 is paying for the size of the tables.',
];

// ---------- formatting ----------

const int = (v) => (v == null ? '–' : Math.round(v).toLocaleString('en-US'));
const ms = (v) => (v == null ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const x = (v) => (v == null ? '–' : v.toFixed(2));
const mb = (v) => (v == null ? '–' : v.toFixed(0));
const statements = (v) => (v == null ? '–' : Number.isInteger(v) ? String(v) : v.toFixed(1));
const targetValue = (t) =>
  t.value == null
    ? '–'
    : t.unit === 'MB'
      ? mb(t.value)
      : t.unit === 'count'
        ? int(t.value)
        : x(t.value);
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

function opCells(contender, id) {
  const op = contender.ops[id];
  if (!op || op.status !== 'ok') return null;
  return op;
}

export function printSummary(results, log) {
  log(`\nResults (${results.mode}; ${results.machine.cores} cores, Node ${results.machine.node})`);
  const rows = [];
  for (const id of OPERATION_IDS) {
    for (const contender of results.contenders) {
      const op = opCells(contender, id);
      if (contender.status === 'skipped') continue;
      rows.push(
        op
          ? [
              `${id} ${contender.id}`,
              int(op.rps),
              x(op.vsCeiling?.rps),
              x(op.vsApollo?.rps),
              ms(op.p50),
              ms(op.p99),
              statements(op.statements),
              op.errors,
            ]
          : [
              `${id} ${contender.id}`,
              'failed',
              '',
              '',
              '',
              '',
              '',
              contender.ops[id]?.reason?.slice(0, 40) ?? contender.reason?.slice(0, 40) ?? '',
            ],
      );
    }
  }
  log(
    textTable(
      ['op contender', 'req/s', '×ceil', '×apollo', 'p50 ms', 'p99 ms', 'SQL/req', 'errors'],
      rows,
    ),
  );
  log('');
  log(
    textTable(
      ['contender', 'peak RSS MB'],
      results.contenders.filter((c) => c.status !== 'skipped').map((c) => [c.id, mb(c.peakRssMb)]),
    ),
  );
  if (results.growth.length) {
    log('');
    log(
      textTable(
        ['Q2 growth', 'ours req/s', 'ours p50', 'apollo req/s', 'apollo p50'],
        results.growth.map((p) => [
          `${int(p.posts)} posts`,
          int(p.results['ours-sqlite']?.rps),
          ms(p.results['ours-sqlite']?.p50),
          int(p.results.apollo?.rps),
          ms(p.results.apollo?.p50),
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
      `${int(data.counts.comments)} comments, ${int(data.counts.likes)} likes, ${int(data.counts.follows)} follows; ` +
      `the signed-in viewer follows ${data.viewerFollows} users.`,
  );
  push(
    `- Load: throughput = requests/s with ${settings.throughputConnections} connections for ${settings.durationSeconds} s ` +
      `after ${settings.warmupSeconds} s of warm-up; latency = p50/p99 with ${settings.latencyConnections} connections for ${settings.durationSeconds} s.`,
  );
  push(
    '- Ratios: "× ceiling" and "× Apollo" divide a figure by the same figure of the ceiling and of the plain Apollo baseline ' +
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
      ['id', 'contender', 'status', 'RSS after start MB', 'peak RSS MB', 'peak × Apollo'],
      results.contenders.map((c) => [
        c.id,
        c.label,
        c.status === 'ok' ? 'ok' : `${c.status}: ${c.reason?.split('\n')[0] ?? ''}`,
        mb(c.idleRssMb),
        mb(c.peakRssMb),
        x(c.peakRssVsApollo),
      ]),
      ['l', 'l', 'l'],
    ),
    '',
  );
  for (const skip of results.skipped) push(`- Skipped ${skip.id}: ${skip.reason}`);
  if (results.skipped.length) push('');

  push('## Operations', '');
  for (const id of OPERATION_IDS) {
    push(`### ${id}: ${results.operations[id]}`, '');
    const rows = results.contenders
      .filter((c) => c.status !== 'skipped')
      .map((c) => {
        const op = opCells(c, id);
        if (!op)
          return [
            c.id,
            `failed: ${(c.ops[id]?.reason ?? c.reason ?? '').slice(0, 80)}`,
            '',
            '',
            '',
            '',
            '',
            '',
            '',
            '',
            '',
            '',
            '',
          ];
        return [
          c.id,
          int(op.rps),
          x(op.vsCeiling?.rps),
          x(op.vsApollo?.rps),
          ms(op.p50),
          x(op.vsCeiling?.p50),
          x(op.vsApollo?.p50),
          ms(op.p99),
          x(op.vsCeiling?.p99),
          x(op.vsApollo?.p99),
          statements(op.statements),
          int(op.responseBytes),
          String(op.errors),
        ];
      });
    push(
      table(
        [
          'contender',
          'req/s',
          '× ceiling',
          '× Apollo',
          'p50 ms',
          '× ceiling',
          '× Apollo',
          'p99 ms',
          '× ceiling',
          '× Apollo',
          'SQL/req',
          'bytes',
          'errors',
        ],
        rows,
        ['l'],
      ),
      '',
    );
  }

  push('## Same answers', '');
  push(
    "Each contender's first answer to each read, compared with our service on SQLite (the reference):",
    '',
  );
  push(
    table(
      ['contender', ...OPERATION_IDS.slice(0, 4)],
      results.contenders
        .filter((c) => c.status !== 'skipped' && c.id !== 'ours-sqlite')
        .map((c) => [
          c.id,
          ...OPERATION_IDS.slice(0, 4).map((id) => {
            const op = c.ops[id];
            if (!op || op.status !== 'ok') return '–';
            if (op.sameAsOurs !== undefined) return op.sameAsOurs ? 'identical bytes' : 'DIFFERENT';
            if (op.sameDataAsOurs !== undefined)
              return `${op.sameDataAsOurs ? 'same data' : 'DIFFERENT data'}, ${x(op.sizeVsOurs)}× size`;
            return '–';
          }),
        ]),
      ['l', 'l', 'l', 'l', 'l'],
    ),
    '',
  );
  push(
    '"Same data" compares the values in document order (keys ignored, timestamps normalised), since PostGraphile names fields its own way.',
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
