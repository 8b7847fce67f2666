import { isDeepStrictEqual } from 'node:util';

import type { Dump } from './seed';

/** One HTTP exchange as a client sees it. */
export interface Reply {
  status: number;
  contentType: string | undefined;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: unknown;
}

/** What one instance did with one corpus document: its replies, the rows it left, its logs. */
export interface Observation {
  replies: Reply[];
  /** Every table after the last send. */
  tables: Dump;
  /** The unexpected errors it logged while answering. */
  unexpected: string[];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;
const DB_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?$/;
const JWT = /^eyJ[\w-]+\.eyJ[\w-]+\.[\w-]*$/;
const CURSOR = /^[A-Za-z0-9_-]{16,}$/;
/** The opaque cursors the service makes, decoded: their kind, then their parts. */
const CURSOR_TEXT = /^(post|search|bookmark|notification|tag|webhook|delivery):(.+)$/s;
/** A webhook's signing secret, as createWebhook and rotateWebhookSecret show it. */
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;
/** A time in milliseconds since 1970 inside a cursor, from 2001 to 2286. */
const MILLIS = /^\d{12,13}$/;

/**
 * Rewrites the values that legitimately differ between two instances given the same requests,
 * and nothing else: ids the service generated (numbered in order of first appearance, so that
 * "the same new id twice" and "two different new ids" stay apart), timestamps after the seed,
 * JWTs (reduced to their subject and token version), the opaque cursors that carry ids and
 * timestamps (of posts, searches, bookmarks, notifications, tags, webhooks and their
 * deliveries), password hashes (argon2 salts each one), account tokens' hashes (the tokens are
 * random) and webhook secrets, shown or sealed (both random). Ids, timestamps and hashes of the
 * seed are kept as they are.
 *
 * Make one per instance and document, and pass it the replies in order, then the tables, so that
 * both instances number the same values alike.
 */
export class Normaliser {
  private readonly ids = new Map<string, string>();
  private readonly hashes = new Map<string, string>();
  private readonly tokenHashes = new Map<string, string>();
  private readonly secrets = new Map<string, string>();

  /**
   * @param seedIds ids present before the run, kept as they are
   * @param seedHashes password hashes of the seed, kept as they are
   * @param since the start of the run: later timestamps are the service's own
   */
  constructor(
    private readonly seedIds: ReadonlySet<string>,
    private readonly seedHashes: ReadonlySet<string>,
    private readonly since: Date,
  ) {}

  observation(observation: Observation): Observation {
    return {
      replies: observation.replies.map((reply) => ({
        ...reply,
        body: this.json(withErrorsInOrder(reply.body)),
      })),
      tables: this.tables(observation.tables),
      unexpected: observation.unexpected.map((line) => this.text(line)),
    };
  }

  /** A GraphQL response or any JSON value, deeply, keeping the order of keys. */
  json(value: unknown): unknown {
    if (typeof value === 'string') return this.string(value);
    if (Array.isArray(value)) return value.map((item) => this.json(item));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.json(item)]));
    }
    return value;
  }

  /** The rows of a dump: timestamps as ISO text (drivers differ), then as {@link json}. */
  tables(dump: Dump): Dump {
    const out: Dump = {};
    for (const [table, rows] of Object.entries(dump)) {
      out[table] = rows.map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([column, value]) => [column, this.column(column, value)]),
        ),
      );
    }
    return out;
  }

  private column(column: string, value: unknown): unknown {
    if (column === 'password_hash' && typeof value === 'string') return this.hash(value);
    if (column === 'token_hash' && typeof value === 'string') return this.tokenHash(value);
    // A webhook's secret, sealed with a random nonce: numbered as it first appears.
    if (/^(previous_)?secret$/.test(column) && typeof value === 'string') return this.secret(value);
    if (column.endsWith('_at') && value !== null) return this.time(asDate(value));
    return this.json(value);
  }

  private string(value: string): string {
    if (JWT.test(value)) return this.jwt(value);
    if (WEBHOOK_SECRET.test(value)) return this.secret(value);
    if (CURSOR.test(value)) {
      const decoded = Buffer.from(value, 'base64url').toString('utf8');
      const cursor = CURSOR_TEXT.exec(decoded);
      if (cursor && Buffer.from(decoded).toString('base64url') === value) {
        return `<cursor ${cursor[1]}:${this.cursorParts(cursor[2])}>`;
      }
    }
    return this.text(value);
  }

  /** A cursor's `:`-separated parts: times in milliseconds and ids as elsewhere, the rest kept. */
  private cursorParts(parts: string): string {
    return parts
      .split(':')
      .map((part) => (MILLIS.test(part) ? this.time(new Date(Number(part))) : this.text(part)))
      .join(':');
  }

  /** Ids and timestamps inside any text, such as an error message. */
  private text(value: string): string {
    return value
      .replace(UUID, (found) => this.id(found))
      .replace(ISO_TIME, (found) => this.time(new Date(found)));
  }

  private id(value: string): string {
    const key = value.toLowerCase();
    if (this.seedIds.has(key)) return value;
    let label = this.ids.get(key);
    if (!label) this.ids.set(key, (label = `<new id ${this.ids.size + 1}>`));
    return value === key
      ? label
      : `${label} (as ${value === value.toUpperCase() ? 'upper' : 'mixed'} case)`;
  }

  private time(value: Date): string {
    if (Number.isNaN(value.getTime())) return '<invalid time>';
    return value >= this.since ? '<time of the run>' : value.toISOString();
  }

  private hash(value: string): string {
    if (this.seedHashes.has(value)) return '<seed password hash>';
    let label = this.hashes.get(value);
    if (!label) this.hashes.set(value, (label = `<new password hash ${this.hashes.size + 1}>`));
    return label;
  }

  /** An account token's hash: of a random token, so numbered as it first appears. */
  private tokenHash(value: string): string {
    let label = this.tokenHashes.get(value);
    if (!label) this.tokenHashes.set(value, (label = `<token hash ${this.tokenHashes.size + 1}>`));
    return label;
  }

  /** A webhook secret (random), or its sealed form (a random nonce), numbered as it first appears. */
  private secret(value: string): string {
    let label = this.secrets.get(value);
    if (!label) this.secrets.set(value, (label = `<webhook secret ${this.secrets.size + 1}>`));
    return label;
  }

  private jwt(token: string): string {
    try {
      const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
      const { sub, ver, iat, exp, ...rest } = claims;
      const lifetime = typeof iat === 'number' && typeof exp === 'number' ? exp - iat : undefined;
      return `<jwt ${JSON.stringify(this.json({ sub, ver, lifetime, ...rest }))}>`;
    } catch {
      return '<jwt that does not decode>';
    }
  }
}

/**
 * A response with its errors sorted by path and location. graphql-js lists field errors in the
 * order the fields failed, which on PostgreSQL varies from one run of one instance to the next
 * when two fields wait on the database; the errors themselves are compared in full.
 */
function withErrorsInOrder(body: unknown): unknown {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length < 2) return body;
  const key = (error: { path?: unknown; locations?: unknown }) =>
    JSON.stringify([error?.path ?? null, error?.locations ?? null]);
  const sorted = [...errors].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return { ...(body as object), errors: sorted };
}

function asDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'string' && DB_TIME.test(value)) {
    return new Date(value.includes('T') ? value : `${value.replace(' ', 'T')}Z`);
  }
  return new Date(NaN);
}

/**
 * The differences between two normalised observations, each a line naming where it is (at most
 * `limit`): replies are compared send by send (status, content type, body with the order of its
 * keys), then each table row by row, then the unexpected errors logged. Empty when they agree.
 */
export function differences(oracle: Observation, candidate: Observation, limit = 12): string[] {
  const found: string[] = [];
  const sends = Math.max(oracle.replies.length, candidate.replies.length);
  for (let i = 0; i < sends; i++) {
    compare(`send ${i + 1}`, oracle.replies[i], candidate.replies[i], found);
  }
  compareTables(oracle.tables, candidate.tables, found);
  compare('unexpected errors logged', oracle.unexpected, candidate.unexpected, found);
  return found.length > limit
    ? [...found.slice(0, limit), `... ${found.length - limit} more`]
    : found;
}

/** Rows matched by their key (their id, or the ids they join), then column by column. */
function compareTables(a: Dump, b: Dump, found: string[]): void {
  for (const table of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const rowsA = byKey(a[table] ?? []);
    const rowsB = byKey(b[table] ?? []);
    for (const [key, row] of rowsA) {
      const other = rowsB.get(key);
      if (!other) found.push(`tables.${table} ${key}: only on graphql-js: ${show(row)}`);
      else compare(`tables.${table} ${key}`, row, other, found);
    }
    for (const [key, row] of rowsB) {
      if (!rowsA.has(key)) found.push(`tables.${table} ${key}: only on compiled: ${show(row)}`);
    }
  }
}

function byKey(rows: Record<string, unknown>[]): Map<string, Record<string, unknown>> {
  const keyed = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const columns = 'id' in row ? ['id'] : Object.keys(row).filter((c) => c.endsWith('_id'));
    let key = `(${columns.map((column) => String(row[column])).join(', ')})`;
    while (keyed.has(key)) key += "'";
    keyed.set(key, row);
  }
  return keyed;
}

function compare(path: string, a: unknown, b: unknown, found: string[]): void {
  if (isDeepStrictEqual(a, b) && sameKeyOrder(a, b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) found.push(`${path}: ${a.length} items, compiled ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      compare(`${path}[${i}]`, a[i], b[i], found);
    }
    return;
  }
  if (isObject(a) && isObject(b)) {
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    for (const key of new Set([...keysA, ...keysB])) {
      if (!(key in b)) found.push(`${path}.${key}: ${show(a[key])}, compiled: missing`);
      else if (!(key in a)) found.push(`${path}.${key}: missing, compiled: ${show(b[key])}`);
      else compare(`${path}.${key}`, a[key], b[key], found);
    }
    if (keysA.length === keysB.length && keysA.some((key, i) => key !== keysB[i])) {
      found.push(`${path}: keys in order ${keysA.join(',')}, compiled ${keysB.join(',')}`);
    }
    return;
  }
  found.push(`${path}: ${show(a)}, compiled: ${show(b)}`);
}

function sameKeyOrder(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.every((item, i) => sameKeyOrder(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    return (
      keysA.length === keysB.length &&
      keysA.every((key, i) => key === keysB[i] && sameKeyOrder(a[key], b[key]))
    );
  }
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}
