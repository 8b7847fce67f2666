// How `npm start` and `npm run start:prod` start the service, for those that start it the same
// way: the benchmark's contenders (bench/contenders) and the tests of the built service
// (test/helpers/built-service.ts). CommonJS, so that Jest loads it as it is and the bench imports it.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** One of the scripts in `root`'s package.json that run `node … dist/src/main.js`, taken apart. */
function startCommand(root, script) {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const command = /^((?:\s*\w+=\S*)*)\s*node((?:\s+--\S+)*)\s+dist\/src\/main\.js$/.exec(
    String(scripts[script]).trim(),
  );
  if (!command) throw new Error(`${script} does not run node dist/src/main.js`);
  return { assignments: command[1], options: command[2] };
}

/** Node's options in `script` (V8's memory settings, in `start` and `start:prod`). */
function startOptions(root, script = 'start:prod') {
  return startCommand(root, script).options.split(/\s+/).filter(Boolean);
}

/**
 * The environment that `script` sets before `node` (glibc's malloc settings), without NODE_ENV,
 * which `start:prod` alone sets and which each caller sets itself.
 */
function startEnvironment(root, script = 'start:prod') {
  const env = {};
  for (const assignment of startCommand(root, script).assignments.split(/\s+/).filter(Boolean)) {
    const at = assignment.indexOf('=');
    env[assignment.slice(0, at)] = assignment.slice(at + 1);
  }
  delete env.NODE_ENV;
  return env;
}

exports.startOptions = startOptions;
exports.startEnvironment = startEnvironment;
