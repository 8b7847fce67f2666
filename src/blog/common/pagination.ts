import { ArgsType, Field, ID, Int } from '@nestjs/graphql';

import { badUserInput } from './errors';
import { isUuid } from './uuid';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** `first` and `after` of every list field: the page size and the id of the last item seen. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, defaultValue: DEFAULT_PAGE_SIZE })
  first?: number | null;

  @Field(() => ID, { nullable: true, description: 'The id of the last item of the previous page.' })
  after?: string | null;
}

/** `first` and `after` of every Relay page: the page size and the endCursor of the previous page. */
@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { nullable: true, defaultValue: DEFAULT_PAGE_SIZE })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string | null;
}

export interface Page {
  first: number;
  /** The id of the last item seen, in lower case; null for the first page. */
  after: string | null;
  /**
   * That item's publishedAt when a connection cursor carried it: a list ordered by it then
   * needs no lookup, and goes on even after the item is deleted.
   */
  afterPublishedAt?: Date | null;
}

/** Checks a page's bounds once, for every list field. */
export function toPage(args: PageArgs): Page {
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 0 || first > MAX_PAGE_SIZE) {
    throw badUserInput(`first must be between 0 and ${MAX_PAGE_SIZE}; got ${first}.`, 'first');
  }
  const after = args.after ?? null;
  if (after !== null && !isUuid(after)) {
    throw badUserInput('after must be the id of an item of the previous page.', 'after');
  }
  // Ids are stored in lower case, and lists compare them as text.
  return { first, after: after?.toLowerCase() ?? null };
}

/** A page of a Relay connection, whose `after` is an endCursor made by {@link encodeCursor}. */
export function toConnectionPage(args: { first?: number | null; after?: string | null }): Page {
  const cursor = args.after ? decodeCursor(args.after) : null;
  const page = toPage({ first: args.first, after: cursor?.id });
  return { ...page, afterPublishedAt: cursor?.publishedAt ?? null };
}

/** A stable key for loaders that are shared by parents asking for the same page. */
export function pageKey(page: Page): string {
  return `${page.first}:${page.after ?? ''}:${page.afterPublishedAt?.getTime() ?? ''}`;
}

/** An opaque Relay cursor: the base64url of `text`, which names the item's place in its order. */
export function opaqueCursor(text: string): string {
  return Buffer.from(text).toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** C0 (NUL included), DEL and C1: no cursor the service makes holds one, and PostgreSQL refuses NUL. */
const CONTROL = /\p{Cc}/u;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The text of an {@link opaqueCursor}, or null when `cursor` is not one: not base64url as
 * `opaqueCursor` writes it (no padding, no stray characters), not UTF-8 (an encoded surrogate
 * included), or holding a control character. Every cursor decoder reads through this check, so
 * no hostile byte reaches a statement.
 */
export function opaqueCursorText(cursor: string): string | null {
  if (!BASE64URL.test(cursor)) return null;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.toString('base64url') !== cursor) return null;
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return null;
  }
  return CONTROL.test(text) ? null : text;
}

/**
 * The groups of `pattern` in the text of an {@link opaqueCursor}; BAD_USER_INPUT on `after` with
 * `message` when the cursor is not one ({@link opaqueCursorText}), its text does not match or
 * `valid` refuses the groups.
 */
export function cursorGroups(
  cursor: string,
  pattern: RegExp,
  message: string,
  valid: (groups: (string | undefined)[]) => boolean = () => true,
): (string | undefined)[] {
  const text = opaqueCursorText(cursor);
  const match = text === null ? null : pattern.exec(text);
  const groups = match?.slice(1) ?? [];
  if (!match || !valid(groups)) throw badUserInput(message, 'after');
  return groups;
}

/** Where a connection's page ends: the last item's id and its place in the order. */
export interface Cursor {
  id: string;
  /** Null in cursors of the first form, which carried the id alone. */
  publishedAt: Date | null;
}

/** `post:<publishedAt>:<id>`, or the first form `post:<id>`; 13 digits reach the year 2286. */
const CURSOR = /^post:(?:(-?\d{1,13}):)?([0-9a-fA-F-]{36})$/;

/**
 * An opaque Relay cursor: `post:<publishedAt in ms since 1970>:<id>`, base64url-encoded. It
 * carries the item's place in the order, so the next page needs no lookup and survives the
 * item's deletion. (Timestamps are written from JS Dates, so milliseconds are what is stored.)
 */
export function encodeCursor(item: { id: string; publishedAt: Date | null }): string {
  const at = item.publishedAt === null ? '' : `${item.publishedAt.getTime()}:`;
  return opaqueCursor(`post:${at}${item.id}`);
}

/**
 * The cursor made by {@link encodeCursor}, or by its first form `post:<id>` (publishedAt null:
 * the item must then be looked up); anything else is BAD_USER_INPUT.
 */
export function decodeCursor(cursor: string): Cursor {
  const [at, id] = cursorGroups(
    cursor,
    CURSOR,
    'after must be an endCursor of a previous page.',
    ([, id]) => isUuid(id!),
  );
  return { id: id!.toLowerCase(), publishedAt: at === undefined ? null : new Date(Number(at)) };
}
