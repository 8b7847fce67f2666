import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

import { format } from 'sql-formatter';
import { DataSource } from 'typeorm';

import * as accountEmail from '../auth/account-email.sql';
import * as auth from '../auth/auth.sql';
import { blogEntities } from '../blog.entities';
import * as bookmarks from '../bookmarks/bookmarks.sql';
import * as comments from '../comments/comments.sql';
import { Dialect, Statement, translate } from '../common/sql';
import * as feed from '../feed/feed.sql';
import * as follows from '../follows/follows.sql';
import * as images from '../images/images.sql';
import * as likes from '../likes/likes.sql';
import * as mail from '../mail/mail.sql';
import { migrations } from '../migrations';
import * as moderationLog from '../moderation/moderation-log.sql';
import * as moderationQueue from '../moderation/moderation-queue.sql';
import * as notifications from '../notifications/notifications.sql';
import * as posts from '../posts/posts.sql';
import * as search from '../search/search.sql';
import * as syndication from '../syndication/syndication.sql';
import * as tags from '../tags/tags.sql';
import * as users from '../users/users.sql';
import * as webhooks from '../webhooks/webhooks.sql';

/**
 * The SQL of every statement, per database, formatted for review in src/blog/queries/
 * (STYLE habit 11). Run with SQL_GENERATE=write (`npm run sql:generate`), this spec writes the
 * files instead of comparing them, and removes those of statement sets that are gone.
 */
const FEATURES: Record<string, object> = {
  'account-email': accountEmail,
  auth,
  bookmarks,
  comments,
  feed,
  follows,
  images,
  likes,
  mail,
  'moderation-log': moderationLog,
  'moderation-queue': moderationQueue,
  notifications,
  posts,
  search,
  syndication,
  tags,
  users,
  webhooks,
};

const QUERIES = __dirname;
const BLOG = dirname(QUERIES);
const DIALECTS: readonly Dialect[] = ['sqlite', 'postgres'];
const LANGUAGE = { sqlite: 'sqlite', postgres: 'postgresql' } as const;
const REGENERATE = 'Run `npm run sql:generate` and commit what it writes.';

/** The `<feature>.sql.ts` files under src/blog, by feature. */
function statementFiles(): Map<string, string> {
  const files = readdirSync(BLOG, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.sql.ts'))
    .sort();
  return new Map(files.map((path) => [basename(path, '.sql.ts'), path]));
}

function isStatement(value: unknown): value is Statement {
  if (typeof value !== 'object' || value === null || !('text' in value)) return false;
  const { text } = value;
  if (typeof text === 'string') return true;
  return typeof text === 'object' && text !== null && DIALECTS.every((d) => d in text);
}

/** The exports of a `<feature>.sql.ts` that are statement sets, by export name. */
function statementSets(module: object): [string, Record<string, Statement>][] {
  return Object.entries(module)
    .filter(([, value]) => {
      if (typeof value !== 'object' || value === null) return false;
      const members = Object.values(value);
      return members.length > 0 && members.every(isStatement);
    })
    .sort(([a], [b]) => a.localeCompare(b));
}

/** One statement as `dialect` receives it, laid out by sql-formatter, under its name. */
function render(name: string, statement: Statement, dialect: Dialect): string {
  const { text, names } = translate(statement.text, dialect);
  const formatted = format(text, { language: LANGUAGE[dialect], tabWidth: 2 });
  if (formatted.replace(/\s+/g, '') !== text.replace(/\s+/g, '')) {
    throw new Error(`sql-formatter changed more than the layout of ${name} on ${dialect}`);
  }
  const binds = names.map((parameter, index) =>
    dialect === 'postgres' ? `$${index + 1} ${parameter}` : parameter,
  );
  const bindLine = binds.length > 0 ? [`-- binds: ${binds.join(', ')}`] : [];
  const planLine =
    statement.planEachRun && dialect === 'postgres' ? ["-- planned for each run's values"] : [];
  return [`-- ${name}`, ...bindLine, ...planLine, `${formatted};`].join('\n');
}

/** The file of one feature's statements on one database. */
function renderFile(source: string, module: object, dialect: Dialect): string | null {
  const sets = statementSets(module);
  if (sets.length === 0) return null;
  const header = [
    `-- Generated from src/blog/${source} by \`npm run sql:generate\`: do not edit.`,
    dialect === 'postgres'
      ? '-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.'
      : '-- Each statement as SQLite receives it; each ? takes the next parameter under binds.',
  ].join('\n');
  const statements = sets.flatMap(([set, members]) =>
    Object.entries(members).map(([key, statement]) => render(`${set}.${key}`, statement, dialect)),
  );
  return `${[header, ...statements].join('\n\n')}\n`;
}

/** Every file that src/blog/queries/ should hold, by file name. */
function generate(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [feature, source] of statementFiles()) {
    const module = FEATURES[feature];
    if (!module) continue;
    for (const dialect of DIALECTS) {
      const content = renderFile(source, module, dialect);
      if (content !== null) files.set(`${feature}.${dialect}.sql`, content);
    }
  }
  return files;
}

function committed(): Map<string, string> {
  const names = readdirSync(QUERIES).filter((name) => name.endsWith('.sql'));
  return new Map(names.map((name) => [name, readFileSync(join(QUERIES, name), 'utf8')]));
}

/** What differs between the committed files and the generated ones, one line per file. */
function differences(onDisk: Map<string, string>, expected: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [name, content] of expected) {
    const found = onDisk.get(name);
    if (found === undefined) problems.push(`${name} is missing. ${REGENERATE}`);
    else if (found !== content) {
      problems.push(`${name} differs ${firstDifference(found, content)}. ${REGENERATE}`);
    }
  }
  for (const name of onDisk.keys()) {
    if (!expected.has(name)) problems.push(`${name} belongs to no statement set. ${REGENERATE}`);
  }
  return problems;
}

function firstDifference(found: string, expected: string): string {
  const a = found.split('\n');
  const b = expected.split('\n');
  const line = a.findIndex((text, index) => text !== b[index]);
  const at = line === -1 ? a.length : line;
  return `at line ${at + 1}: ${JSON.stringify(a[at] ?? '')}, generated ${JSON.stringify(b[at] ?? '')}`;
}

function write(expected: Map<string, string>): void {
  const onDisk = committed();
  for (const [name, content] of expected) {
    if (onDisk.get(name) !== content) writeFileSync(join(QUERIES, name), content);
  }
  for (const name of onDisk.keys()) if (!expected.has(name)) rmSync(join(QUERIES, name));
  const changed = differences(onDisk, expected).length;
  process.stdout.write(
    `sql:generate: ${changed} file(s) of ${relative(process.cwd(), QUERIES)} changed\n`,
  );
}

describe('The SQL of each feature, per database, in src/blog/queries', () => {
  const expected = generate();
  if (process.env.SQL_GENERATE === 'write') write(expected);

  it('should read the statements of every <feature>.sql.ts', () => {
    expect([...statementFiles().keys()]).toEqual(Object.keys(FEATURES).sort());
  });

  it('should hold, for each feature and database, exactly what the statements generate', () => {
    expect(differences(committed(), expected)).toEqual([]);
  });

  it('should name each statement and its parameters above its formatted SQL', () => {
    const file = expected.get('feed.postgres.sql') ?? '';
    expect(file).toContain('-- feedSql.pageAfter\n-- binds: $1 viewerId, $2 afterPublishedAt');
    expect(expected.get('feed.sqlite.sql')).toContain(
      '-- binds: viewerId, viewerId, afterPublishedAt',
    );
    expect(file).toMatch(/\nFROM\n {2}posts p\nWHERE\n/);
  });

  describe("SQLite's +? placeholder", () => {
    let dataSource: DataSource;

    beforeAll(async () => {
      dataSource = new DataSource({
        type: 'better-sqlite3',
        database: ':memory:',
        entities: blogEntities,
        migrations,
        migrationsRun: true,
      });
      await dataSource.initialize();
    });

    afterAll(() => dataSource?.destroy());

    /** SQLite's plan of `text`, every parameter bound to null. */
    async function planOf(text: string, parameters: number): Promise<string> {
      const rows: { detail: string }[] = await dataSource.query(
        `EXPLAIN QUERY PLAN ${text}`,
        new Array(parameters).fill(null),
      );
      return rows.map((row) => row.detail).join('\n');
    }

    it('should leave the plan of every statement as it is with a bare ?', async () => {
      const differing: string[] = [];
      let compared = 0;
      for (const module of Object.values(FEATURES)) {
        for (const [set, members] of statementSets(module)) {
          for (const [key, statement] of Object.entries(members)) {
            const { text, names } = translate(statement.text, 'sqlite');
            expect(text).not.toMatch(/(?<!\+)\?/);
            const bare = text.replaceAll('+?', '?');
            const [plain, plus] = [
              await planOf(bare, names.length),
              await planOf(text, names.length),
            ];
            if (plain !== plus) differing.push(`${set}.${key}:\n${plain}\n--- with +?:\n${plus}`);
            compared++;
          }
        }
      }
      expect(differing).toEqual([]);
      expect(compared).toBeGreaterThan(90);
    });
  });

  describe('the comparison', () => {
    const generated = new Map([['likes.sqlite.sql', '-- likesSql.like\nINSERT\n']]);

    it('should report a changed file at its first different line', () => {
      const changed = new Map([['likes.sqlite.sql', '-- likesSql.like\nDELETE\n']]);
      expect(differences(changed, generated)).toEqual([
        `likes.sqlite.sql differs at line 2: "DELETE", generated "INSERT". ${REGENERATE}`,
      ]);
    });

    it('should report a file missing, and a file of a statement set that no longer exists', () => {
      const stale = new Map([['gone.postgres.sql', '-- goneSql.x\nSELECT 1;\n']]);
      expect(differences(stale, generated)).toEqual([
        `likes.sqlite.sql is missing. ${REGENERATE}`,
        `gone.postgres.sql belongs to no statement set. ${REGENERATE}`,
      ]);
    });
  });
});
