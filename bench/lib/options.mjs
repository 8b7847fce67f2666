import { FULL_SIZES, scaleSizes } from './blog-plan.mjs';

export const USAGE = `Usage: npm run bench -- [options]

  --small               quick run: 1/10 of the data, 3 s rounds, 1 s warm-up
  --large               also measure the feed (Q2) growth at 1,000,000 posts
  --scale <f>           data size as a fraction of the full blog (default 1; --small 0.1)
  --users <n> --posts <n> --comments <n> --likes <n> --follows <n>
                        exact table sizes (override --scale)
  --duration <s>        seconds of each measured round (default 10; --small 3)
  --warmup <s>          seconds of warm-up per operation (default 3; --small 1)
  --connections <n>     connections of the throughput round (default 100)
  --latency-connections <n>
                        connections of the latency round (default 10)
  --only <ids>          contenders to run, comma-separated:
                        ceiling,ours-sqlite,apollo,mercurius,floor-sqlite,ours-pg,
                        postgraphile,postgraphile5,floor-pg
                        (ours-sqlite always runs)
  --no-pg               skip the PostgreSQL contenders
  --no-growth           skip the growth measurement
  --passes <n>          throughput rounds of each operation, each on a fresh server and data;
                        the passes after the first run the contenders in reverse order, then
                        forward again, and the report keeps each contender's best (default 2)
  --cold-starts <n>     fresh starts of each server, timed from the spawn to the answer to
                        a tiny query; the report gives their median (default 3; 0 skips)
  --seed <s>            seed of the data generator (default 42)
  --out <dir>           where to write latest.json and latest.md (default bench/results)
  --keep-data           keep the temporary databases and logs
  --help`;

/** `value` of the option `name` as a number above zero, or an error that names the option. */
export function positiveNumber(name, value) {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${name} needs a positive number`);
  return parsed;
}

export function parseOptions(argv) {
  const options = {
    small: false,
    large: false,
    scale: null,
    sizes: {},
    duration: null,
    warmup: null,
    connections: 100,
    latencyConnections: 10,
    only: null,
    pg: true,
    growth: true,
    coldStarts: 3,
    seed: '42',
    out: null,
    keepData: false,
    help: false,
  };
  const number = positiveNumber;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    switch (arg) {
      case '--small':
        options.small = true;
        break;
      case '--large':
        options.large = true;
        break;
      case '--scale':
        options.scale = number(arg, next());
        break;
      case '--users':
      case '--posts':
      case '--comments':
      case '--likes':
      case '--follows':
        options.sizes[arg.slice(2)] = Math.round(number(arg, next()));
        break;
      case '--duration':
        options.duration = number(arg, next());
        break;
      case '--warmup':
        options.warmup = number(arg, next());
        break;
      case '--connections':
        options.connections = Math.round(number(arg, next()));
        break;
      case '--latency-connections':
        options.latencyConnections = Math.round(number(arg, next()));
        break;
      case '--only':
        options.only = new Set(
          next()
            .split(',')
            .map((s) => s.trim()),
        );
        break;
      case '--no-pg':
        options.pg = false;
        break;
      case '--no-growth':
        options.growth = false;
        break;
      case '--passes': {
        const passes = Number(next());
        if (!Number.isInteger(passes) || passes < 1)
          throw new Error(`${arg} needs a whole number ≥ 1`);
        options.passes = passes;
        break;
      }
      case '--cold-starts': {
        const runs = Number(next());
        if (!Number.isInteger(runs) || runs < 0) throw new Error(`${arg} needs a whole number`);
        options.coldStarts = runs;
        break;
      }
      case '--seed':
        options.seed = next();
        break;
      case '--out':
        options.out = next();
        break;
      case '--keep-data':
        options.keepData = true;
        break;
      case '--help':
      case '-h':
        options.help = true;
        break;
      default:
        throw new Error(`Unknown option ${arg}\n\n${USAGE}`);
    }
  }
  const scale = options.scale ?? (options.small ? 0.1 : 1);
  options.scale = scale;
  options.sizes = { ...scaleSizes(FULL_SIZES, scale), ...options.sizes };
  options.duration ??= options.small ? 3 : 10;
  options.warmup ??= options.small ? 1 : 3;
  options.passes ??= 2;
  options.mode = options.small ? 'small' : options.large ? 'large' : 'full';
  return options;
}

/** The post counts at which the growth of Q2 is measured (the main data set is one of them). */
export function growthPoints(options) {
  const points = new Set([1_000, options.sizes.posts]);
  if (options.large) points.add(1_000_000);
  return [...points].sort((a, b) => a - b);
}
