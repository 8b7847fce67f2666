// Preloaded (`--require`) into a server by `bench/profile.mjs --allocations`: V8's sampling heap
// profiler, counting the objects that were collected since as well as those still alive (what a
// request allocates is almost all garbage by the time the round ends, so Node's own
// `--heap-prof`, which keeps only the live ones, would miss it). The first SIGUSR2 starts it and
// writes `sampling-<pid>` into BENCH_ALLOCATIONS_DIR; the second stops it and writes
// `allocations-<pid>.heapprofile` there. BENCH_ALLOCATIONS_INTERVAL is the mean bytes between
// two samples (512 by default).
const { renameSync, writeFileSync } = require('node:fs');
const { Session } = require('node:inspector');
const { join } = require('node:path');

const dir = process.env.BENCH_ALLOCATIONS_DIR;
const samplingInterval = Number(process.env.BENCH_ALLOCATIONS_INTERVAL || 512);
if (!dir) throw new Error('allocation-sampler: BENCH_ALLOCATIONS_DIR is not set');

const session = new Session();
session.connect();
const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );

let sampling = false;
process.on('SIGUSR2', () => {
  const step = sampling ? stop() : start();
  sampling = !sampling;
  step.catch((error) => {
    console.error(`allocation-sampler: ${error.stack ?? error}`);
    process.exitCode = 1;
  });
});

async function start() {
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  writeFileSync(join(dir, `sampling-${process.pid}`), '');
}

async function stop() {
  const { profile } = await post('HeapProfiler.stopSampling');
  const file = join(dir, `allocations-${process.pid}.heapprofile`);
  // Written aside, then renamed: the profiler never reads a file half written.
  writeFileSync(`${file}.partial`, JSON.stringify(profile));
  renameSync(`${file}.partial`, file);
}
