#!/usr/bin/env node
/**
 * The physical ceiling: a bare node:http server that answers each operation with the response
 * bytes our service gave for it, captured beforehand. No GraphQL parsing, no database; it reads
 * the request body (as any server must) and picks the answer by the `x-bench-op` header.
 *
 *   RESPONSES_FILE=responses.json PORT=4001 node bench/contenders/ceiling-server.mjs
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const responses = new Map(
  Object.entries(JSON.parse(readFileSync(process.env.RESPONSES_FILE, 'utf8'))).map(([op, body]) => [
    op,
    Buffer.from(body),
  ]),
);
const headersFor = (body) => ({
  'content-type': 'application/json; charset=utf-8',
  'content-length': body.length,
});
const prepared = new Map([...responses].map(([op, body]) => [op, [body, headersFor(body)]]));

const server = createServer((req, res) => {
  if (req.url === '/health') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
    return;
  }
  const answer = prepared.get(req.headers['x-bench-op']);
  req.on('end', () => {
    if (!answer) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, answer[1]);
    res.end(answer[0]);
  });
  req.resume();
});
server.listen(Number(process.env.PORT ?? 4001), '127.0.0.1', () => {
  console.log(`Ceiling ready at http://127.0.0.1:${server.address().port}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
