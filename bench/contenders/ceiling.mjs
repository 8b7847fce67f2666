/** The physical ceiling: pre-serialised responses from a bare node:http server. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startServer } from '../lib/processes.mjs';

export function ceiling(ctx, responses) {
  const file = join(ctx.tmp, 'ceiling-responses.json');
  return {
    id: 'ceiling',
    label: 'ceiling: node:http, canned bytes',
    dialect: 'graphql',
    statementPattern: null,
    async prepare() {
      writeFileSync(file, JSON.stringify(responses));
    },
    start: ({ port }) =>
      startServer({
        name: 'ceiling',
        args: [join(ctx.root, 'bench/contenders/ceiling-server.mjs')],
        cwd: ctx.root,
        port,
        logFile: join(ctx.tmp, 'ceiling.log'),
        env: { NODE_ENV: 'production', RESPONSES_FILE: file, PORT: String(port) },
      }),
    async dispose() {},
  };
}
