// Usage: node --expose-gc scripts/sqlite-gc-hammer.mjs [rounds]
//
// Prepares 20,000 statements through better-sqlite3, then forces a full garbage collection, a
// few rounds over: the statements' finalizers run inside that collection. better-sqlite3 12
// aborted the process there on Node 24 and 26 (SIGABRT, "Assertion failed: (env) != nullptr" in
// Statement::~Statement), at boot of the service and in the test suite. It exits 0 and prints
// one line when every round went through; a crash kills it by a signal, which
// test/native-runtime.e2e-spec.ts (and CI, on every supported Node line) reports.
import { createRequire } from 'node:module';

const STATEMENTS = 20_000;
const rounds = Number(process.argv[2] ?? 4);
if (typeof globalThis.gc !== 'function') {
  console.error('Run it with node --expose-gc.');
  process.exit(2);
}
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`Not a number of rounds: ${process.argv[2]}`);
  process.exit(2);
}

// The project's better-sqlite3, or the one a given folder resolves (to try another version).
const require = createRequire(process.env.SQLITE_GC_HAMMER_FROM ?? import.meta.url);
const Database = require('better-sqlite3');
const { version } = require('better-sqlite3/package.json');

let rows = 0;
for (let round = 0; round < rounds; round += 1) {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
  db.prepare('INSERT INTO notes (id, text) VALUES (1, ?)').run('one');
  for (let i = 0; i < STATEMENTS; i += 1) {
    // Distinct texts, so that each is a statement of its own; every tenth is also run.
    const statement = db.prepare(`SELECT text, ${i} AS n FROM notes WHERE id = ?`);
    if (i % 10 === 0) rows += statement.all(1).length;
  }
  // Half the rounds close the database first; the others leave it to the collector as well.
  if (round % 2 === 0) db.close();
  globalThis.gc();
}
globalThis.gc();
console.log(
  `better-sqlite3 ${version} on Node ${process.version}: ${rounds} rounds of ` +
    `${STATEMENTS} statements and a full collection, ${rows} rows read, no crash`,
);
