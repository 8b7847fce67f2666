// Sends `{ __typename }` to a GraphQL endpoint one after another, from a process of its own, and
// reports each answer and how long it took: { start: true } starts, { stop: true } stops and
// answers { probes: [{ ok, ms }] }.
const { performance } = require('node:perf_hooks');

const [url] = process.argv.slice(2);
let running = false;
let probes = [];

async function probe() {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    const body = await response.text();
    const ok = response.status === 200 && body.trim() === '{"data":{"__typename":"Query"}}';
    return {
      ok,
      ms: performance.now() - started,
      ...(ok ? {} : { status: response.status, body }),
    };
  } catch (error) {
    return { ok: false, ms: performance.now() - started, error: String(error) };
  }
}

async function loop() {
  while (running) probes.push(await probe());
}

process.on('message', (message) => {
  if (message.start) {
    probes = [];
    running = true;
    void loop();
  }
  if (message.stop) {
    running = false;
    process.send({ probes });
  }
  if (message.close) process.exit(0);
});
process.send({ ready: true });
