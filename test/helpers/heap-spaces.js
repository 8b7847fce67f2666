// Preloaded into the built service (`NODE_OPTIONS=--require=<this file>`) by
// test/resting-memory.e2e-spec.ts: on SIGUSR2 it writes V8's heap spaces, as
// v8.getHeapSpaceStatistics() gives them, to HEAP_SPACES_FILE.
const { renameSync, writeFileSync } = require('node:fs');
const { getHeapSpaceStatistics } = require('node:v8');

process.on('SIGUSR2', () => {
  const file = process.env.HEAP_SPACES_FILE;
  // Written whole, then renamed, so that the test never reads half a file.
  writeFileSync(`${file}.tmp`, JSON.stringify(getHeapSpaceStatistics()));
  renameSync(`${file}.tmp`, file);
});
