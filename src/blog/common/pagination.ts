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

export interface Page {
  first: number;
  after: string | null;
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
  return { first, after };
}

/** A stable key for loaders that are shared by parents asking for the same page. */
export function pageKey(page: Page): string {
  return `${page.first}:${page.after ?? ''}`;
}

const CURSOR_PREFIX = 'post:';

/** An opaque Relay cursor for an item id. */
export function encodeCursor(id: string): string {
  return Buffer.from(`${CURSOR_PREFIX}${id}`).toString('base64url');
}

/** The item id inside a cursor made by {@link encodeCursor}; anything else is BAD_USER_INPUT. */
export function decodeCursor(cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = decoded.startsWith(CURSOR_PREFIX) ? decoded.slice(CURSOR_PREFIX.length) : '';
  if (!isUuid(id)) throw badUserInput('after must be an endCursor of a previous page.', 'after');
  return id;
}
