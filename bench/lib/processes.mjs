import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** Every child server still running, so that an exit or a signal can stop them all. */
const running = new Set();

/** Registers a child process (a load worker) to be killed with the servers if the run stops. */
export function track(child) {
  running.add(child);
  child.on('exit', () => running.delete(child));
  return child;
}

/** Stops the children of this run (by pid) when the runner exits, fails or is interrupted. */
export function installCleanup(extra = async () => {}) {
  const killAll = () => {
    for (const child of running) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    running.clear();
  };
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, async () => {
      console.error(`\n${signal}: stopping the servers of this run...`);
      killAll();
      await extra().catch(() => {});
      process.exit(130);
    });
  }
}

/** A TCP port that is free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server process with its output in `logFile`, and waits until it answers `probe`:
 * 'health' (GET /health), 'graphql' (`{ __typename }`, for servers without a health route) or
 * `{ query }`, a GraphQL query that must come back as data without errors. The handle's
 * `readyMs` is the time from the spawn to that first answer: with a `{ query }` probe the
 * server is asked every 10 ms, so that it measures the cold start. `launcher`, a command and its
 * arguments, runs `command` under it (bench/compare.mjs runs servers under valgrind).
 * Rejects, after stopping it, when it exits or is not ready within `timeoutMs`.
 */
export async function startServer({
  name,
  command = process.execPath,
  args,
  launcher = [],
  cwd,
  env,
  port,
  logFile,
  probe = 'health',
  timeoutMs = 90_000,
}) {
  const out = openSync(logFile, 'a');
  const spawnedAt = performance.now();
  const [program, ...programArgs] = [...launcher, command, ...args];
  const child = spawn(program, programArgs, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  running.add(child);
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
    running.delete(child);
  });
  const handle = {
    name,
    pid: child.pid,
    port,
    url: `http://127.0.0.1:${port}`,
    logFile,
    readyMs: null,
    get exited() {
      return exited;
    },
    stop: () => stopChild(child, () => exited),
  };
  const deadline = Date.now() + timeoutMs;
  const pollMs = typeof probe === 'object' ? 10 : 150;
  while (Date.now() < deadline) {
    if (exited) {
      throw new Error(
        `${name} exited (${exited.code ?? exited.signal}) before it was ready:\n${tail(logFile)}`,
      );
    }
    if (await isReady(handle.url, probe, deadline)) {
      handle.readyMs = performance.now() - spawnedAt;
      return handle;
    }
    await sleep(pollMs);
  }
  await handle.stop();
  throw new Error(`${name} was not ready after ${timeoutMs / 1000}s:\n${tail(logFile)}`);
}

async function isReady(url, probe, deadline) {
  try {
    if (probe === 'health') {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      return response.status === 200;
    }
    // A server that accepts the connection before it is ready answers this request when it is.
    const query = typeof probe === 'object' ? probe.query : '{ __typename }';
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
      signal: AbortSignal.timeout(Math.max(2000, deadline - Date.now())),
    });
    const body = await response.text();
    if (typeof probe !== 'object') return response.status === 200;
    return response.status === 200 && body.startsWith('{"data":') && !body.includes('"errors"');
  } catch {
    return false;
  }
}

/** SIGTERM, then SIGKILL if the process is still there after `graceMs`. */
async function stopChild(child, exited, graceMs = 8000) {
  if (exited()) return;
  child.kill('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (!exited() && Date.now() < deadline) await sleep(50);
  if (!exited()) {
    child.kill('SIGKILL');
    for (let i = 0; i < 40 && !exited(); i++) await sleep(50);
  }
  running.delete(child);
}

/** The last lines of a log file, for error messages. */
export function tail(file, lines = 25) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** The size of a file, 0 when it does not exist. */
export function fileSize(file) {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * Memory of a process from /proc (Linux): `peakMb` is VmHWM, the high-water mark of its resident
 * set since it started; `rssMb` is VmRSS now. Null where /proc is not available.
 */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
  } catch {
    return null;
  }
}

/** /proc gives CPU times in clock ticks (USER_HZ), 100 a second on Linux. */
const MS_PER_TICK = 10;

/**
 * One line of /proc's `stat` (of a process or of one of its threads): its name, the CPU time it
 * has spent so far in ms (`ms`, user and system), and the system (kernel) part of it (`systemMs`).
 */
export function cpuOfStat(stat) {
  // The fields after the name, which is in parentheses and may hold spaces and parentheses.
  const nameEnd = stat.lastIndexOf(')');
  const fields = stat.slice(nameEnd + 2).split(' ');
  const systemMs = Number(fields[12]) * MS_PER_TICK;
  return {
    name: stat.slice(stat.indexOf('(') + 1, nameEnd),
    ms: Number(fields[11]) * MS_PER_TICK + systemMs,
    systemMs,
  };
}

/** The CPU time that process `pid` has spent so far, all its threads, in ms; null without /proc. */
export function cpuMsOf(pid) {
  try {
    return cpuOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).ms;
  } catch {
    return null;
  }
}

/**
 * Samples VmRSS every `everyMs` as a fallback to VmHWM; `stop()` returns the largest of the two
 * seen so far, in MB.
 */
export function watchMemory(pid, everyMs = 250) {
  let peak = 0;
  const sample = () => {
    const memory = memoryOf(pid);
    if (memory) peak = Math.max(peak, memory.rssMb || 0, memory.peakMb || 0);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    stop() {
      sample();
      clearInterval(timer);
      return peak || null;
    },
  };
}
